/* The sokod core: everything a program needs to read levels and play them. */
#ifndef SOKO_H
#define SOKO_H

#include "base.h"
#include "level.h"
#include "reader.h"
#include "game.h"
#include "lurd.h"
#include "path.h"
#include "deadlock.h"
#include "reverse.h"
#include "pack.h"

#endif
