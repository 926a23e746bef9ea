// <cub/version.cuh> (written for tgsim): the CUB version tgsim's subset follows.
#pragma once
#define CUB_VERSION 200200
#define CUB_MAJOR_VERSION 2
#define CUB_MINOR_VERSION 2
#define CUB_SUBMINOR_VERSION 0
