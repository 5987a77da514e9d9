#pragma once
#include "Export.h"

namespace c10 {

// TORCH_API and C10_API are known before any header is read; MYLIB_API is learned
// from Export.h beside this file.
struct C10_API TensorImpl {
  TensorImpl() = default;
  virtual ~TensorImpl();
  bool has_storage() const;
};

TORCH_API void set_requires_grad(TensorImpl* impl, bool value);
MYLIB_API int mylib_version();

} // namespace c10
