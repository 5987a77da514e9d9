#pragma once

// Written for this case: it names StatArray but includes nothing that declares it,
// so no use of c10::CachingAllocator::StatArray is found here.
namespace c10::CachingDeviceAllocator {
using namespace c10::CachingAllocator;
struct Totals {
  StatArray allocation;
};
} // namespace c10::CachingDeviceAllocator
