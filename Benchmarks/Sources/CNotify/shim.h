// sd_notify, for the Swift floor program (notify-floor): what the C baseline calls.
#pragma once
#include <systemd/sd-daemon.h>
