_CCCL_BEGIN_NAMESPACE_CUDA_STD
namespace chrono
{
class year_month_day
{
  int __year_;
};
} // namespace chrono
_CCCL_END_NAMESPACE_CUDA_STD
