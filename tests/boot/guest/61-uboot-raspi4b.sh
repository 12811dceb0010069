#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 61-uboot-raspi4b.sh before the board checks: /chosen's
# MARK property (@tree: the card's tree U-Boot loaded has it)
#
# usage: 61-uboot-raspi4b.sh MARK
echo "@tree=$(tr -d '\0' < "/proc/device-tree/chosen/$1")"
