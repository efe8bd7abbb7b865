/* A YAML document as a small tree with the line and column of every node, read with
 * libyaml, so the scenario reader can walk it freely and name the place of any error.
 * Internal. Anchors and aliases are refused (a scenario has no use for them, and an
 * alias bomb could otherwise blow up a small file); so are tags other than the core
 * ones, several documents in one file, duplicate keys and non-scalar keys. */
#ifndef RT_YAML_TREE_H
#define RT_YAML_TREE_H

#include "core.h"

typedef enum rt_ynode_type {
	RT_YNODE_SCALAR = 0,
	RT_YNODE_MAP,
	RT_YNODE_SEQ
} rt_ynode_type;

typedef struct rt_ynode rt_ynode;
struct rt_ynode {
	rt_ynode_type type;
	int line, column;        /* 1-based */
	bool quoted;             /* a scalar written in quotes: always a string */
	char *text;              /* scalar text (NUL-terminated), NULL otherwise */
	size_t text_size;        /* bytes allocated for text */
	int count;               /* map: pairs; seq: items */
	int capacity;
	char **keys;             /* map: count keys */
	int *key_lines, *key_columns;
	rt_ynode **items;        /* map: values; seq: items */
};

/* Limits: files above these are refused before they can exhaust memory. */
#define RT_YAML_MAX_BYTES (16u << 20)  /* 16 MiB */
#define RT_YAML_MAX_DEPTH 64
#define RT_YAML_MAX_NODES 1000000
#define RT_YAML_MAX_SCALAR 65536

/* Parses text (len bytes). `name` names the file in errors. On success *out is the
 * root (a mapping, a sequence or a scalar). */
rt_status rt__yaml_parse(const char *text, size_t len, const char *name, const rt_allocator *a, rt_ynode **out,
			 rt_error *err);
void rt__yaml_free(rt_ynode *node, const rt_allocator *a);

/* The value under key in a mapping, or NULL. */
rt_ynode *rt__yaml_get(const rt_ynode *map, const char *key);
/* Doubles a node's child arrays (all or nothing). */
bool rt__yaml_grow(rt_ynode *node, const rt_allocator *a);
/* Replaces a scalar's text (for --set). */
rt_status rt__yaml_set_text(rt_ynode *node, const char *text, const rt_allocator *a);

#endif
