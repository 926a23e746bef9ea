// The host function saxpy.cu defines and main.cpp calls (two translation units, as a Makefile builds them).
#pragma once
int run_saxpy(int n);  // the number of wrong elements
