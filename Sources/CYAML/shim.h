#ifndef HIVED_CYAML_SHIM_H
#define HIVED_CYAML_SHIM_H

// libyaml (Debian's libyaml-dev) for HiveKit's configuration reader. Everything
// HiveKit calls (yaml_parser_initialize, yaml_parser_set_input_string,
// yaml_parser_parse, yaml_event_delete, yaml_parser_delete) imports as is, so no
// static inline wrapper is needed. A wrapper added here must name what it replaces.

#include <yaml.h>

#endif
