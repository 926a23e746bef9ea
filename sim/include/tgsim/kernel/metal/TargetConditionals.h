// <TargetConditionals.h> as a Metal shader sees it on a Mac with Apple silicon (Apple's samples
// include it from the headers they share with host code, as AAPLConfig.h does): the TARGET_OS_
// and TARGET_CPU_ macros.
#ifndef TGSIM_METAL_TARGET_CONDITIONALS_H
#define TGSIM_METAL_TARGET_CONDITIONALS_H
#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_TV 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_VISION 0
#define TARGET_OS_MACCATALYST 0
#define TARGET_OS_SIMULATOR 0
#define TARGET_OS_EMBEDDED 0
#define TARGET_CPU_ARM64 1
#define TARGET_CPU_X86_64 0
#define TARGET_RT_LITTLE_ENDIAN 1
#endif
