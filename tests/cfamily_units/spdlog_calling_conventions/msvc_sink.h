extern "C" __declspec(dllimport) void __stdcall OutputDebugStringA(const char *s);
extern "C" __declspec(dllimport) int __stdcall IsDebuggerPresent();
int __cdecl compare(const void* a, const void* b);
typedef int (__stdcall *Callback)(int);

namespace spdlog {
namespace sinks {
template <typename Mutex>
class msvc_sink {
  public:
    void flush();
};
}  // namespace sinks
}  // namespace spdlog
