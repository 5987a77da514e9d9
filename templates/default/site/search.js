/* docgen's symbol search. Nothing of the index is loaded with a page: the manifest
   and one shard (named by the query's first characters) are loaded as scripts when
   someone searches, which works from file:// as over HTTP. Keys and words are made
   as docgen/site/search.py makes them. */
(function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root") || ".";
  var box = document.getElementById("docgen-search");
  var list = document.getElementById("docgen-results");
  if (!box || !list) { return; }
  var manifest = null, shards = {}, waiting = {}, chosen = -1, shown = [];
  var LIMIT = 50;

  function load(src, done) {
    if (waiting[src]) { waiting[src].push(done); return; }
    waiting[src] = [done];
    var s = document.createElement("script");
    s.src = root + "/_search/" + src;
    s.onload = s.onerror = function () {
      var calls = waiting[src]; delete waiting[src];
      calls.forEach(function (f) { f(); });
    };
    document.head.appendChild(s);
  }
  window.docgenSearch = {
    manifest: function (m) { manifest = m; },
    shard: function (key, entries) { shards[key] = entries; }
  };
  function keyOf(text, n) { return text.slice(0, n).toLowerCase().replace(/[^a-z0-9]/g, "_"); }
  function words(name) {
    var found = [name.toLowerCase()];
    var re = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_.:~]+/g, m;
    while ((m = re.exec(name)) !== null) {
      var rest = name.slice(m.index + m[0].length).toLowerCase();
      if (rest && found.indexOf(rest) < 0) { found.push(rest); }
      if (m[0].length === 0) { re.lastIndex++; }
    }
    return found;
  }
  function shardFor(q) {
    var n = manifest.first, key = keyOf(q, n);
    while (manifest.split.indexOf(key) >= 0 && q.length > n) { n += 1; key = keyOf(q, n); }
    return manifest.keys.indexOf(key) >= 0 ? key : null;
  }
  function rank(entry, q, lower) {
    var name = entry[0], qual = entry[2], r;
    if (name === q) { r = 0; }
    else if (name.toLowerCase() === lower) { r = 1; }
    else if (qual === q || qual.toLowerCase() === lower) { r = 2; }
    else if (name.toLowerCase().indexOf(lower) === 0) { r = 3; }
    else if (words(name).some(function (w) { return w.indexOf(lower) === 0; })) { r = 4; }
    else if (qual.toLowerCase().indexOf(lower) === 0) { r = 5; }
    else { return -1; }
    return r * 2 + (entry[1] === "import" ? 1 : 0);  /* definitions before mentions */
  }
  function href(entry) {
    var path = (entry[5] || entry[3]).split("/").map(encodeURIComponent).join("/");  /* a long name's page stem */
    return root + "/" + path + "_docs.html" + (entry[4] ? "#" + encodeURIComponent(entry[4]) : "");
  }
  function render(q) {
    list.textContent = "";
    chosen = shown.length ? 0 : -1;
    shown.forEach(function (entry, i) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = href(entry);
      var kind = document.createElement("span"); kind.className = "kind"; kind.textContent = entry[1];
      var qual = document.createElement("code"); qual.textContent = entry[2] || entry[0];
      var file = document.createElement("span"); file.className = "file"; file.textContent = entry[3];
      a.appendChild(kind); a.appendChild(document.createTextNode(" "));
      a.appendChild(qual); a.appendChild(document.createTextNode(" "));
      a.appendChild(file);
      if (entry[6]) {  /* other files that use it */
        var uses = document.createElement("span"); uses.className = "uses";
        uses.textContent = "used in " + entry[6] + (entry[6] === 1 ? " file" : " files");
        a.appendChild(document.createTextNode(" ")); a.appendChild(uses);
      }
      li.appendChild(a);
      if (i === chosen) { li.className = "chosen"; }
      list.appendChild(li);
    });
    if (!shown.length && q) {
      var none = document.createElement("li"); none.className = "none";
      none.textContent = q.length < 2 ? "Type at least two characters." : "No symbol found.";
      list.appendChild(none);
    }
    list.hidden = !q;
  }
  function search() {
    var q = box.value.trim(), lower = q.toLowerCase();
    if (!q) { shown = []; render(""); return; }
    if (!manifest) { load("manifest.js", search); return; }
    var key = shardFor(q);
    if (key !== null && !shards[key]) { load(key + ".js", search); return; }
    var found = [];
    (key !== null ? shards[key] : []).forEach(function (entry) {
      var r = rank(entry, q, lower);
      if (r >= 0) { found.push([r, entry]); }
    });
    found.sort(function (a, b) {
      /* then the shorter name, the less nested definition (shorter qualified name) */
      return a[0] - b[0] || a[1][0].length - b[1][0].length ||
        a[1][2].length - b[1][2].length ||
        (a[1][2] < b[1][2] ? -1 : a[1][2] > b[1][2] ? 1 : 0) ||
        (a[1][3] < b[1][3] ? -1 : a[1][3] > b[1][3] ? 1 : 0);
    });
    shown = found.slice(0, LIMIT).map(function (f) { return f[1]; });
    render(q);
  }
  function close() {
    list.textContent = ""; list.hidden = true; shown = []; chosen = -1;
  }
  function choose(step) {
    var items = list.querySelectorAll("li a");
    if (!items.length) { return; }
    chosen = (chosen + step + items.length) % items.length;
    list.querySelectorAll("li").forEach(function (li, i) { li.className = i === chosen ? "chosen" : ""; });
    items[chosen].scrollIntoView({ block: "nearest" });
  }
  box.addEventListener("input", search);
  box.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { choose(1); e.preventDefault(); }
    else if (e.key === "ArrowUp") { choose(-1); e.preventDefault(); }
    else if (e.key === "Enter") {
      var items = list.querySelectorAll("li a");
      if (chosen >= 0 && items[chosen]) { window.location.href = items[chosen].href; }
      e.preventDefault();
    } else if (e.key === "Escape") {
      /* the first Escape closes the list, a second one clears the query */
      if (!list.hidden) { close(); }
      else { box.value = ""; search(); box.blur(); }
      e.preventDefault();
    }
  });
  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" ||
      (target && target.isContentEditable);
  }
  document.addEventListener("keydown", function (e) {
    /* `/` goes to the search only when no other field is being typed in */
    if (e.key === "/" && !typing(document.activeElement)) { box.focus(); e.preventDefault(); }
  });
  document.addEventListener("click", function (e) {
    /* a click outside the box and its list closes the list */
    if (e.target !== box && !list.contains(e.target) && !list.hidden) { close(); }
  });
}());
