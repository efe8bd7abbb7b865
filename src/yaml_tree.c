/* Reads YAML with libyaml's event parser into rt_ynode trees (yaml_tree.h). libyaml
 * keeps its own small parser buffers with malloc; every node rout keeps comes from the
 * caller's allocator. The builder is iterative with an explicit stack, so depth is
 * bounded by RT_YAML_MAX_DEPTH, not by the C stack. */
#include "yaml_tree.h"

#include <stdio.h>
#include <yaml.h>

typedef struct builder {
	const rt_allocator *a;
	const char *name;
	rt_error *err;
	rt_ynode *stack[RT_YAML_MAX_DEPTH + 1];
	char *pending_key[RT_YAML_MAX_DEPTH + 1];  /* a mapping's key waiting for its value */
	int pending_line[RT_YAML_MAX_DEPTH + 1], pending_column[RT_YAML_MAX_DEPTH + 1];
	int depth;
	int nodes;
	rt_ynode *root;
} builder;

static char *copy_text(const rt_allocator *a, const char *s, size_t n, size_t *size_out)
{
	char *t = rt__alloc(a, n + 1);
	if (!t) return NULL;
	memcpy(t, s, n);
	t[n] = '\0';
	*size_out = n + 1;
	return t;
}

void rt__yaml_free(rt_ynode *node, const rt_allocator *a)
{
	if (!node) return;
	for (int i = 0; i < node->count; i++) {
		rt__yaml_free(node->items[i], a);
		if (node->keys && node->keys[i]) rt__free(a, node->keys[i], strlen(node->keys[i]) + 1);
	}
	size_t cap = (size_t)node->capacity;
	if (node->items) rt__free(a, node->items, cap * sizeof(rt_ynode *));
	if (node->keys) rt__free(a, node->keys, cap * sizeof(char *));
	if (node->key_lines) rt__free(a, node->key_lines, cap * sizeof(int));
	if (node->key_columns) rt__free(a, node->key_columns, cap * sizeof(int));
	if (node->text) rt__free(a, node->text, node->text_size);
	rt__free(a, node, sizeof *node);
}

static rt_status fail(builder *b, const yaml_mark_t *m, rt_status code, const char *msg, const char *detail)
{
	return rt__fail_at(b->err, code, b->name, (int)m->line + 1, (int)m->column + 1, "", "%s%s%s", msg,
			   detail ? ": " : "", detail ? detail : "");
}

/* Doubles a node's child arrays, all or nothing, so their sizes always match capacity. */
bool rt__yaml_grow(rt_ynode *node, const rt_allocator *a)
{
	const int cap = node->capacity ? node->capacity * 2 : 4;
	const size_t old = (size_t)node->capacity, neu = (size_t)cap;
	const bool map = node->type == RT_YNODE_MAP;
	rt_ynode **items = rt__alloc(a, neu * sizeof(rt_ynode *));
	char **keys = map ? rt__alloc(a, neu * sizeof(char *)) : NULL;
	int *kl = map ? rt__alloc(a, neu * sizeof(int)) : NULL;
	int *kc = map ? rt__alloc(a, neu * sizeof(int)) : NULL;
	if (!items || (map && (!keys || !kl || !kc))) {
		rt__free(a, items, neu * sizeof(rt_ynode *));
		rt__free(a, keys, neu * sizeof(char *));
		rt__free(a, kl, neu * sizeof(int));
		rt__free(a, kc, neu * sizeof(int));
		return false;
	}
	if (old) {
		memcpy(items, node->items, old * sizeof(rt_ynode *));
		if (map) {
			memcpy(keys, node->keys, old * sizeof(char *));
			memcpy(kl, node->key_lines, old * sizeof(int));
			memcpy(kc, node->key_columns, old * sizeof(int));
		}
	}
	rt__free(a, node->items, old * sizeof(rt_ynode *));
	rt__free(a, node->keys, old * sizeof(char *));
	rt__free(a, node->key_lines, old * sizeof(int));
	rt__free(a, node->key_columns, old * sizeof(int));
	node->items = items;
	node->keys = keys;
	node->key_lines = kl;
	node->key_columns = kc;
	node->capacity = cap;
	return true;
}

static rt_status add_child(builder *b, rt_ynode *parent, rt_ynode *child, char *key, int key_line, int key_column)
{
	if (parent->count == parent->capacity && !rt__yaml_grow(parent, b->a)) return RT_ERR_NOMEM;
	parent->items[parent->count] = child;
	if (parent->type == RT_YNODE_MAP) {
		parent->keys[parent->count] = key;
		parent->key_lines[parent->count] = key_line;
		parent->key_columns[parent->count] = key_column;
	}
	parent->count++;
	return RT_OK;
}

/* Attaches a finished node to whatever is open: the root, a sequence, or a mapping
 * (as its key when no key is pending, else as the pending key's value). Takes
 * ownership of node. */
static rt_status attach(builder *b, rt_ynode *node, const yaml_mark_t *m)
{
	if (b->depth == 0) {
		b->root = node;
		return RT_OK;
	}
	rt_ynode *parent = b->stack[b->depth - 1];
	int d = b->depth - 1;
	if (parent->type == RT_YNODE_SEQ) {
		rt_status s = add_child(b, parent, node, NULL, 0, 0);
		if (s != RT_OK) rt__yaml_free(node, b->a);
		return s == RT_OK ? RT_OK : rt__fail(b->err, s, "out of memory reading %s", b->name);
	}
	if (!b->pending_key[d]) {
		if (node->type != RT_YNODE_SCALAR) {
			rt__yaml_free(node, b->a);
			return fail(b, m, RT_ERR_PARSE, "a mapping key must be a plain word or string", NULL);
		}
		for (int i = 0; i < parent->count; i++) {
			if (strcmp(parent->keys[i], node->text) == 0) {
				rt_status s = rt__fail_at(b->err, RT_ERR_PARSE, b->name, node->line, node->column, node->text,
							  "duplicate key \"%s\" (first at line %d)", node->text, parent->key_lines[i]);
				rt__yaml_free(node, b->a);
				return s;
			}
		}
		b->pending_key[d] = node->text;
		b->pending_line[d] = node->line;
		b->pending_column[d] = node->column;
		node->text = NULL;
		rt__yaml_free(node, b->a);
		return RT_OK;
	}
	char *key = b->pending_key[d];
	b->pending_key[d] = NULL;
	rt_status s = add_child(b, parent, node, key, b->pending_line[d], b->pending_column[d]);
	if (s != RT_OK) {
		rt__free(b->a, key, strlen(key) + 1);
		rt__yaml_free(node, b->a);
		return rt__fail(b->err, s, "out of memory reading %s", b->name);
	}
	return RT_OK;
}

static rt_ynode *new_node(builder *b, rt_ynode_type type, const yaml_mark_t *m)
{
	rt_ynode *n = rt__calloc(b->a, 1, sizeof *n);
	if (!n) return NULL;
	n->type = type;
	n->line = (int)m->line + 1;
	n->column = (int)m->column + 1;
	b->nodes++;
	return n;
}

static bool core_tag(const yaml_char_t *tag)
{
	if (!tag) return true;
	const char *t = (const char *)tag;
	return strcmp(t, "tag:yaml.org,2002:str") == 0 || strcmp(t, "tag:yaml.org,2002:int") == 0 ||
	       strcmp(t, "tag:yaml.org,2002:float") == 0 || strcmp(t, "tag:yaml.org,2002:bool") == 0 ||
	       strcmp(t, "tag:yaml.org,2002:null") == 0 || strcmp(t, "tag:yaml.org,2002:map") == 0 ||
	       strcmp(t, "tag:yaml.org,2002:seq") == 0;
}

static void builder_release(builder *b)
{
	for (int d = 0; d < b->depth; d++) {
		if (b->pending_key[d]) rt__free(b->a, b->pending_key[d], strlen(b->pending_key[d]) + 1);
		rt__yaml_free(b->stack[d], b->a);
	}
	b->depth = 0;
	rt__yaml_free(b->root, b->a);
	b->root = NULL;
}

rt_status rt__yaml_parse(const char *text, size_t len, const char *name, const rt_allocator *a, rt_ynode **out,
			 rt_error *err)
{
	rt__error_clear(err);
	*out = NULL;
	if (len > RT_YAML_MAX_BYTES)
		return rt__fail_at(err, RT_ERR_CAPACITY, name, 0, 0, "", "file is %zu bytes; the limit is %u", len,
				   (unsigned)RT_YAML_MAX_BYTES);
	if (memchr(text, '\0', len))
		return rt__fail_at(err, RT_ERR_PARSE, name, 0, 0, "", "file contains a NUL byte; expected UTF-8 text");

	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) return rt__fail(err, RT_ERR_NOMEM, "cannot start the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);

	builder b;
	memset(&b, 0, sizeof b);
	b.a = a;
	b.name = name;
	b.err = err;
	rt_status status = RT_OK;
	int documents = 0;
	bool done = false;
	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			status = rt__fail_at(err, RT_ERR_PARSE, name, (int)parser.problem_mark.line + 1,
					     (int)parser.problem_mark.column + 1, "", "YAML syntax: %s%s%s",
					     parser.problem ? parser.problem : "malformed", parser.context ? " " : "",
					     parser.context ? parser.context : "");
			break;
		}
		const yaml_mark_t *m = &ev.start_mark;
		if (b.nodes >= RT_YAML_MAX_NODES) {
			status = fail(&b, m, RT_ERR_CAPACITY, "more than 1,000,000 YAML nodes", NULL);
			yaml_event_delete(&ev);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++documents > 1) status = fail(&b, m, RT_ERR_PARSE, "more than one YAML document; expected one", NULL);
			break;
		case YAML_ALIAS_EVENT:
			status = fail(&b, m, RT_ERR_PARSE, "YAML aliases (*name) are not allowed in a scenario", NULL);
			break;
		case YAML_SCALAR_EVENT: {
			if (ev.data.scalar.anchor) {
				status = fail(&b, m, RT_ERR_PARSE, "YAML anchors (&name) are not allowed in a scenario", NULL);
				break;
			}
			if (!core_tag(ev.data.scalar.tag)) {
				status = fail(&b, m, RT_ERR_PARSE, "unsupported YAML tag", (const char *)ev.data.scalar.tag);
				break;
			}
			if (ev.data.scalar.length > RT_YAML_MAX_SCALAR) {
				status = fail(&b, m, RT_ERR_CAPACITY, "a text longer than 65,536 bytes", NULL);
				break;
			}
			rt_ynode *n = new_node(&b, RT_YNODE_SCALAR, m);
			if (n) n->text = copy_text(a, (const char *)ev.data.scalar.value, ev.data.scalar.length, &n->text_size);
			if (!n || !n->text) {
				rt__yaml_free(n, a);
				status = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", name);
				break;
			}
			n->quoted = ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
				    ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ||
				    ev.data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
				    ev.data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
			status = attach(&b, n, m);
			break;
		}
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			bool seq = ev.type == YAML_SEQUENCE_START_EVENT;
			const yaml_char_t *anchor = seq ? ev.data.sequence_start.anchor : ev.data.mapping_start.anchor;
			const yaml_char_t *tag = seq ? ev.data.sequence_start.tag : ev.data.mapping_start.tag;
			if (anchor) {
				status = fail(&b, m, RT_ERR_PARSE, "YAML anchors (&name) are not allowed in a scenario", NULL);
				break;
			}
			if (!core_tag(tag)) {
				status = fail(&b, m, RT_ERR_PARSE, "unsupported YAML tag", (const char *)tag);
				break;
			}
			if (b.depth >= RT_YAML_MAX_DEPTH) {
				status = fail(&b, m, RT_ERR_CAPACITY, "nesting deeper than 64 levels", NULL);
				break;
			}
			if (b.depth > 0 && b.stack[b.depth - 1]->type == RT_YNODE_MAP && !b.pending_key[b.depth - 1]) {
				status = fail(&b, m, RT_ERR_PARSE, "a mapping key must be a plain word or string", NULL);
				break;
			}
			rt_ynode *n = new_node(&b, seq ? RT_YNODE_SEQ : RT_YNODE_MAP, m);
			if (!n) {
				status = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", name);
				break;
			}
			b.stack[b.depth] = n;
			b.pending_key[b.depth] = NULL;
			b.depth++;
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: {
			b.depth--;
			rt_ynode *n = b.stack[b.depth];
			b.stack[b.depth] = NULL;
			status = attach(&b, n, m);
			break;
		}
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (status != RT_OK) break;
	}
	yaml_parser_delete(&parser);
	if (status == RT_OK && !b.root)
		status = rt__fail_at(err, RT_ERR_PARSE, name, 1, 1, "", "the file is empty; expected a YAML mapping");
	if (status != RT_OK) {
		builder_release(&b);
		return status;
	}
	*out = b.root;
	return RT_OK;
}

rt_ynode *rt__yaml_get(const rt_ynode *map, const char *key)
{
	if (!map || map->type != RT_YNODE_MAP) return NULL;
	for (int i = 0; i < map->count; i++)
		if (strcmp(map->keys[i], key) == 0) return map->items[i];
	return NULL;
}

rt_status rt__yaml_set_text(rt_ynode *node, const char *text, const rt_allocator *a)
{
	size_t size;
	char *t = copy_text(a, text, strlen(text), &size);
	if (!t) return RT_ERR_NOMEM;
	if (node->text) rt__free(a, node->text, node->text_size);
	node->text = t;
	node->text_size = size;
	node->quoted = false;
	return RT_OK;
}
