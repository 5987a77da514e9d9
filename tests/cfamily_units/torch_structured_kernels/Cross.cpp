namespace at {
namespace meta {

TORCH_PRECOMPUTE_META_FUNC(linalg_cross)
(const Tensor & input, const Tensor & other, const int64_t dimension) {
  auto out_size = infer_size(input.sizes(), other.sizes());
  Tensor input_broadcasted = input.expand(out_size);
  Tensor other_broadcasted = other.expand(out_size);

  int64_t dim = maybe_wrap_dim(dimension, input.dim()); // default dim = -1
  TORCH_CHECK(input_broadcasted.size(dim) == 3, "dimension ", dimension, " does not have size 3");

  set_output(out_size, input.options());
  return TORCH_PRECOMPUTE_STRUCT(linalg_cross)().set_dim(dim);
}

}
namespace native {
TORCH_IMPL_FUNC(linalg_cross_out)
(const Tensor & input, const Tensor & other, const int64_t dim, const Tensor & out) {
  auto out_size = infer_size(input.sizes(), other.sizes());
  Tensor input_broadcasted = input.expand(out_size);
  Tensor other_broadcasted = other.expand(out_size);

  cross_stub(input.device().type(), out, input_broadcasted, other_broadcasted, dim);
}

