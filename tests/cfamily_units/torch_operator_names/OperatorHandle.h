namespace c10 {
class OperatorHandle {
 public:
  const OperatorName& operator_name() const;
  bool operator==(const OperatorHandle& other) const;
  explicit operator bool() const;
  void* operator new(size_t size);
  int64_t operator_fixed_slow_path() const;
};
}
