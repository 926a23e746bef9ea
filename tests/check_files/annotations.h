// Read before annotated.cu (--pre-include): its annotations are no-ops for tgsim.
#define __requires(x)
