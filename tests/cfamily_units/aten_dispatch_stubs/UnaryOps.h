namespace at::native {

using unary_fn = void(*)(TensorIteratorBase&);

DECLARE_DISPATCH(unary_fn, abs_stub)
DECLARE_DISPATCH(unary_fn, angle_stub)
DECLARE_DISPATCH(unary_fn, acos_stub) // trailing words
DECLARE_DISPATCH(
    void(*)(TensorIteratorBase&, const Scalar&), clamp_stub);

TORCH_API void rsqrt_kernel(TensorIteratorBase& iter);
} // namespace at::native
