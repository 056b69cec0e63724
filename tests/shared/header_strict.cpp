// header_strict.c as C++: the header's inline calls in a C++ caller's strict build.
#include "header_strict.c"
