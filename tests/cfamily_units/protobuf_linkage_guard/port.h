namespace google {
namespace protobuf {

#ifdef __cplusplus
extern "C" {
#endif  // __cplusplus
uint16_t __sanitizer_unaligned_load16(const void *p);
#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

class Bits {
 public:
  static uint32 Log2FloorNonZero(uint32 n);
};
}  // namespace protobuf
}  // namespace google
