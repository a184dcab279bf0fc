#ifndef HIVEKIT_CHIVEKIT_SHIM_H
#define HIVEKIT_CHIVEKIT_SHIM_H

// Where the `hivekit_annotations` section of the image HiveKit is linked into lies in
// memory, so that annotations are read from the loaded image and never from its file.
//
// The linker defines `__start_SECTION` and `__stop_SECTION` around a section whose name is
// a C identifier when something refers to them: these references do, in every image that
// links HiveKit. Weak, because an image without annotations has no such section (the
// address is then null, or the two are equal); hidden, so that each image's reference
// stays its own and never binds to another image's section. Swift can neither declare a
// weak reference nor a hidden one, hence the `static inline` wrappers. Header only, like
// CSystemd: a .c file in a system-library target is never compiled.

#if defined(__ELF__)
extern const char __start_hivekit_annotations[] __attribute__((weak, visibility("hidden")));
extern const char __stop_hivekit_annotations[] __attribute__((weak, visibility("hidden")));

/// The start of this image's `hivekit_annotations` section; null or equal to the stop
/// when the image has none.
static inline const void *hivekit_annotations_start(void) { return __start_hivekit_annotations; }
/// The end of this image's `hivekit_annotations` section.
static inline const void *hivekit_annotations_stop(void) { return __stop_hivekit_annotations; }
#else
static inline const void *hivekit_annotations_start(void) { return 0; }
static inline const void *hivekit_annotations_stop(void) { return 0; }
#endif

#endif
