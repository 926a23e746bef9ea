// Only in the sanitizer build (TGSIM_SANITIZE): Boost.Context's ucontext fibers with
// BOOST_USE_ASAN annotate every stack switch for AddressSanitizer
// (__sanitizer_start/finish_switch_fiber), which the default fcontext assembly does not.
// Debian's libboost-context is built for fcontext only, so the two out-of-line pieces of the
// ucontext implementation (Boost's libs/context/src/fiber.cpp) are defined here.
#if defined(BOOST_USE_UCONTEXT)
#include <boost/context/fiber.hpp>

namespace boost::context::detail {

// Zero-initialised per thread; the Schwarz counter creates the thread's main record.
thread_local fiber_activation_record* fib_current_rec;
thread_local static std::size_t counter;

fiber_activation_record_initializer::fiber_activation_record_initializer() noexcept {
  if (0 == counter++) fib_current_rec = new fiber_activation_record();
}

fiber_activation_record_initializer::~fiber_activation_record_initializer() {
  if (0 == --counter) {
    BOOST_ASSERT(fib_current_rec->is_main_context());
    delete fib_current_rec;
  }
}

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local static fiber_activation_record_initializer initializer;
  return fib_current_rec;
}

}  // namespace boost::context::detail
#endif
