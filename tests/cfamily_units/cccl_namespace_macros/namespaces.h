#define _CCCL_PROLOGUE_INCLUDE_CHECK()
#define _LIBCUDACXX_ABI_NAMESPACE _CCCL_PP_CAT(__, _LIBCUDACXX_CUDA_ABI_VERSION)
#define _CCCL_BEGIN_NAMESPACE_NOVERSION(_NS)   \
  _CCCL_PROLOGUE_INCLUDE_CHECK() namespace _NS \
  {
#define _CCCL_END_NAMESPACE_NOVERSION(_NS) \
  }                                        \
  _CCCL_PROLOGUE_INCLUDE_CHECK()
#define _CCCL_BEGIN_NAMESPACE(_NS)                                                \
  _CCCL_BEGIN_NAMESPACE_NOVERSION(_NS) inline namespace _LIBCUDACXX_ABI_NAMESPACE \
  {
#define _CCCL_END_NAMESPACE(_NS) \
  }                              \
  _CCCL_END_NAMESPACE_NOVERSION(_NS)
#define _CCCL_BEGIN_NAMESPACE_CUDA_STD           _CCCL_BEGIN_NAMESPACE(cuda::std)
#define _CCCL_END_NAMESPACE_CUDA_STD             _CCCL_END_NAMESPACE(cuda::std)
#define _CCCL_BEGIN_NAMESPACE_CUDA               _CCCL_BEGIN_NAMESPACE(cuda)
#define _CCCL_END_NAMESPACE_CUDA                 _CCCL_END_NAMESPACE(cuda)
#define CHECKED(x) check(x)
#define LOGGED(x) LOG_CALL(x)
