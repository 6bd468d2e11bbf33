package toolguard

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
)

// The call JSON written by hand: Check runs on every tool call, and
// encoding/json's reflection over a Call with map arguments costs over a
// microsecond. Arguments of the usual JSON types (maps, slices, strings,
// numbers, booleans) are written here too; any other type goes through
// encoding/json.

// appendCallJSON appends the call as the C API reads it.
func appendCallJSON(buf []byte, c *Call) ([]byte, error) {
	buf = append(buf, `{"tool":`...)
	buf = appendString(buf, c.Tool)
	if c.Args != nil {
		var err error
		if buf, err = appendArgs(append(buf, `,"args":`...), c.Args); err != nil {
			return nil, err
		}
	}
	buf = append(buf, `,"context":{`...)
	n := len(buf)
	for _, f := range [...]struct{ name, value string }{
		{"cwd", c.Context.Cwd}, {"session", c.Context.SessionID}, {"agent", c.Context.AgentID},
		{"model", c.Context.Model}, {"role", c.Context.Role}, {"mode", c.Context.Mode},
	} {
		if f.value == "" {
			continue
		}
		if len(buf) > n {
			buf = append(buf, ',')
		}
		buf = appendString(append(append(append(buf, '"'), f.name...), `":`...), f.value)
	}
	if len(c.Context.Roots) > 0 {
		if len(buf) > n {
			buf = append(buf, ',')
		}
		buf = append(buf, `"roots":[`...)
		for i, root := range c.Context.Roots {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, root)
		}
		buf = append(buf, ']')
	}
	return append(buf, "}}"...), nil
}

// appendArgs appends the arguments: given as JSON text (checked to be one
// JSON value, so it cannot add members to the call), or encoded.
func appendArgs(buf []byte, args any) ([]byte, error) {
	switch a := args.(type) {
	case json.RawMessage:
		return appendRaw(buf, a)
	case []byte:
		return appendRaw(buf, a)
	}
	return appendValue(buf, args)
}

func appendRaw(buf, text []byte) ([]byte, error) {
	if !json.Valid(text) {
		return nil, errors.New("args: not valid JSON")
	}
	return append(buf, text...), nil
}

// appendValue appends v as encoding/json would write it (keys sorted).
func appendValue(buf []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case string:
		return appendString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case map[string]any:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(appendString(buf, k), ':')
			if buf, err = appendValue(buf, x[k]); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case map[string]string:
		if x == nil {
			return append(buf, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(append(appendString(buf, k), ':'), x[k])
		}
		return append(buf, '}'), nil
	case []any:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, err = appendValue(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case []string:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, e)
		}
		return append(buf, ']'), nil
	case []byte:
		// encoding/json would write base64, so the guard would judge other
		// text than a tool that takes the bytes runs: refused.
		return nil, errors.New("a []byte argument is not judged (it would be written as base64): pass a string")
	}
	text, err := json.Marshal(v) // floats, json.Number, structs, ...
	if err != nil {
		return nil, err
	}
	return append(buf, text...), nil
}

// sortedKeys is m's keys in order (so the same call is the same text).
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 1 {
		sort.Strings(keys)
	}
	return keys
}

// appendString appends s as a JSON string. Bytes that are not UTF-8 are kept
// as they are: the guard judges the bytes the tool would get.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' {
			continue // bytes of UTF-8 sequences too
		}
		buf = append(buf, s[start:i]...)
		switch b {
		case '"', '\\':
			buf = append(buf, '\\', b)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\r':
			buf = append(buf, '\\', 'r')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
