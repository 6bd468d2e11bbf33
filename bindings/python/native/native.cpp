// toolguard's optional native helper for Python (pybind11): Guard.check's
// hot path, tg_guard_decide and the decision's accessors, in one call from
// Python instead of six ctypes calls. Everything else stays in ctypes.
//
// It links against nothing: the package's ctypes handle on libtoolguard_c.so
// passes the addresses of the C API's functions to setup(), so both use the
// one library ctypes loaded (include/toolguard/toolguard.h gives the types).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "toolguard/toolguard.h"

namespace py = pybind11;

namespace {

// The C API's functions this module calls, from setup().
struct CApi {
  decltype(&tg_guard_decide) decide = nullptr;
  decltype(&tg_decision_verdict) verdict = nullptr;
  decltype(&tg_decision_reason) reason = nullptr;
  decltype(&tg_decision_model_reason) model_reason = nullptr;
  decltype(&tg_decision_rule) rule = nullptr;
  decltype(&tg_decision_json) json = nullptr;
  decltype(&tg_decision_free) free = nullptr;
  decltype(&tg_error_message) error_message = nullptr;
  decltype(&tg_error_free) error_free = nullptr;
};
CApi api;
bool ready = false;

// From setup(): the classes and values decide() builds its result from.
struct PyParts {
  PyObject* decision_class = nullptr;  // toolguard.Decision (a dataclass)
  PyObject* verdicts = nullptr;        // tuple: tg_verdict value -> Verdict
  PyObject* deny = nullptr;            // Verdict.DENY: any other value fails closed
  PyObject* guard_error = nullptr;     // toolguard.GuardError
};
PyParts parts;

constexpr const char* kCapsuleName = "toolguard.tg_decision";

template <typename F>
void load(const py::dict& addresses, const char* name, F& out) {
  if (!addresses.contains(name)) throw std::invalid_argument(std::string("setup: missing ") + name);
  const auto address = addresses[name].cast<std::uintptr_t>();
  if (address == 0) throw std::invalid_argument(std::string("setup: NULL ") + name);
  out = reinterpret_cast<F>(address);
}

// Text from the C API (UTF-8) as a Python str; bad bytes replaced, never an error.
py::object text(const char* s) {
  if (s == nullptr) s = "";
  PyObject* out = PyUnicode_DecodeUTF8(s, static_cast<Py_ssize_t>(std::strlen(s)), "replace");
  if (out == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(out);
}

// The capsule's destructor: tg_decision_free. An exception pending when it
// runs (it may run during unwinding) is kept.
void freeDecision(PyObject* capsule) {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  void* decision = PyCapsule_GetPointer(capsule, kCapsuleName);
  if (decision != nullptr && api.free != nullptr) api.free(static_cast<tg_decision*>(decision));
  PyErr_Restore(type, value, traceback);
}

tg_decision* decisionOf(const py::capsule& capsule) {
  void* decision = PyCapsule_GetPointer(capsule.ptr(), kCapsuleName);
  if (decision == nullptr) throw py::error_already_set();
  return static_cast<tg_decision*>(decision);
}

// Takes the C API's functions ({"tg_guard_decide": address, ...}), the
// Decision class, the verdicts by tg_verdict value, Verdict.DENY and GuardError.
void setup(const py::dict& addresses, const py::object& decision_class, const py::tuple& verdicts,
           const py::object& deny, const py::object& guard_error) {
  CApi loaded;
  load(addresses, "tg_guard_decide", loaded.decide);
  load(addresses, "tg_decision_verdict", loaded.verdict);
  load(addresses, "tg_decision_reason", loaded.reason);
  load(addresses, "tg_decision_model_reason", loaded.model_reason);
  load(addresses, "tg_decision_rule", loaded.rule);
  load(addresses, "tg_decision_json", loaded.json);
  load(addresses, "tg_decision_free", loaded.free);
  load(addresses, "tg_error_message", loaded.error_message);
  load(addresses, "tg_error_free", loaded.error_free);
  if (!PyType_Check(decision_class.ptr())) throw std::invalid_argument("setup: decision_class");
  api = loaded;
  // Kept for the life of the process (module state of a module never unloaded).
  parts = {decision_class.inc_ref().ptr(), verdicts.inc_ref().ptr(), deny.inc_ref().ptr(),
           guard_error.inc_ref().ptr()};
  ready = true;
}

// A new Decision whose fields are `fields`, made as the Python side's fast
// path makes it: no generated __init__ (the dataclass is frozen).
py::object newDecision(const py::dict& fields) {
  auto* cls = reinterpret_cast<PyTypeObject*>(parts.decision_class);
  PyObject* object = cls->tp_alloc(cls, 0);
  if (object == nullptr) throw py::error_already_set();
  py::object owned = py::reinterpret_steal<py::object>(object);
  if (PyObject_GenericSetDict(object, fields.ptr(), nullptr) != 0) throw py::error_already_set();
  return owned;
}

// Judges the call JSON on the guard (its address) and returns the Decision
// (its `_source` a capsule that frees the tg_decision). The GIL is released
// while the guard decides (it may ask, and other threads check meanwhile).
// GuardError with the C API's message when it returns no decision.
py::object decideText(std::uintptr_t guard, const char* data, size_t size) {
  if (!ready) throw std::runtime_error("toolguard._native: setup() was not called");
  tg_error* error = nullptr;
  tg_decision* decision = nullptr;
  {
    py::gil_scoped_release unlocked;
    decision = api.decide(reinterpret_cast<tg_guard*>(guard), data, size, &error);
  }
  if (decision == nullptr) {
    std::string message = error != nullptr ? api.error_message(error) : "tg_guard_decide failed";
    api.error_free(error);
    PyErr_SetString(parts.guard_error, message.c_str());
    throw py::error_already_set();
  }
  // Owned by the capsule from here on, whatever fails below.
  py::capsule owner(decision, kCapsuleName, &freeDecision);
  const int verdict = static_cast<int>(api.verdict(decision));
  PyObject* verdicts = parts.verdicts;
  PyObject* value = verdict >= 0 && verdict < PyTuple_GET_SIZE(verdicts)
                        ? PyTuple_GET_ITEM(verdicts, verdict)
                        : parts.deny;
  const char* rule = api.rule(decision);
  py::dict fields;
  fields["verdict"] = py::reinterpret_borrow<py::object>(value);
  fields["reason"] = text(api.reason(decision));
  fields["model_reason"] = text(api.model_reason(decision));
  fields["rule"] = rule != nullptr && *rule != '\0' ? text(rule) : py::none();
  fields["_source"] = std::move(owner);
  return newDecision(fields);
}

// decide(guard, call_json_bytes) -> Decision.
py::object decide(std::uintptr_t guard, const py::bytes& call) {
  char* data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(call.ptr(), &data, &size) != 0) throw py::error_already_set();
  return decideText(guard, data, static_cast<size_t>(size));
}

// Writes `value` as JSON, as json.dumps(ensure_ascii=False) would for the
// types handled here: exact str, int, bool, None, dict with str keys, list,
// tuple. Anything else (floats, subclasses, a lone surrogate, 64 levels
// deep) returns false: the caller lets Python's json module write the call.
bool writeJson(std::string& out, PyObject* value, int depth);

bool writeString(std::string& out, PyObject* value) {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(value, &size);
  if (utf8 == nullptr) {  // a lone surrogate: not UTF-8
    PyErr_Clear();
    return false;
  }
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (Py_ssize_t i = 0; i < size; ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xf];
        } else {
          out += static_cast<char>(c);  // ASCII, or a byte of valid UTF-8
        }
    }
  }
  out += '"';
  return true;
}

bool writeJson(std::string& out, PyObject* value, int depth) {
  if (depth > 64) return false;
  if (PyUnicode_CheckExact(value)) return writeString(out, value);
  if (value == Py_None) {
    out += "null";
  } else if (value == Py_True) {
    out += "true";
  } else if (value == Py_False) {
    out += "false";
  } else if (PyLong_CheckExact(value)) {
    int overflow = 0;
    const long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0 || (number == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    out += std::to_string(number);
  } else if (PyDict_CheckExact(value)) {
    out += '{';
    Py_ssize_t position = 0;
    PyObject* key = nullptr;
    PyObject* item = nullptr;
    bool first = true;
    while (PyDict_Next(value, &position, &key, &item)) {
      if (!PyUnicode_CheckExact(key)) return false;
      if (!first) out += ',';
      first = false;
      if (!writeString(out, key)) return false;
      out += ':';
      if (!writeJson(out, item, depth + 1)) return false;
    }
    out += '}';
  } else if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
    // A list may change while we write it only if our own code ran Python:
    // it does not (no callbacks here), so the size is stable.
    const bool list = PyList_CheckExact(value);
    const Py_ssize_t size = list ? PyList_GET_SIZE(value) : PyTuple_GET_SIZE(value);
    out += '[';
    for (Py_ssize_t i = 0; i < size; ++i) {
      if (i > 0) out += ',';
      PyObject* item = list ? PyList_GET_ITEM(value, i) : PyTuple_GET_ITEM(value, i);
      if (!writeJson(out, item, depth + 1)) return false;
    }
    out += ']';
  } else {
    return false;
  }
  return true;
}

// check(guard, tool, args, context) -> Decision, or None when the call holds
// a value writeJson leaves to Python's json module (then nothing was judged).
py::object check(std::uintptr_t guard, py::handle tool, py::handle args, py::handle context) {
  std::string call;
  call.reserve(256);
  call += "{\"tool\":";
  if (!writeJson(call, tool.ptr(), 0)) return py::none();
  call += ",\"args\":";
  if (!writeJson(call, args.ptr(), 0)) return py::none();
  call += ",\"context\":";
  if (!writeJson(call, context.ptr(), 0)) return py::none();
  call += '}';
  return decideText(guard, call.data(), call.size());
}

// check_call(guard, call) -> the Decision on the call (a dict written as
// JSON), or None when it holds a value writeJson leaves to Python.
py::object checkCall(std::uintptr_t guard, py::handle call) {
  std::string text;
  text.reserve(256);
  if (!writeJson(text, call.ptr(), 0)) return py::none();
  return decideText(guard, text.data(), text.size());
}

// encode(value) -> the JSON text writeJson makes, or None (for the tests).
py::object encode(py::handle value) {
  std::string out;
  if (!writeJson(out, value.ptr(), 0)) return py::none();
  return text(out.c_str());
}

// The whole decision as JSON text (tg_decision_json; rendered on first use,
// so callers serialize the first call on one decision).
py::object decisionJson(const py::capsule& capsule) {
  const char* json = api.json(decisionOf(capsule));
  if (json == nullptr) throw std::bad_alloc();
  return text(json);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "toolguard's native hot path (tg_guard_decide and the accessors in one call)";
  m.def("setup", &setup, py::arg("addresses"), py::arg("decision_class"), py::arg("verdicts"),
        py::arg("deny"), py::arg("guard_error"),
        "Takes the C API's function addresses and the classes decide() builds from.");
  m.def("decide", &decide, py::arg("guard"), py::arg("call"),
        "The Decision on the call JSON by the guard (its address).");
  m.def("check", &check, py::arg("guard"), py::arg("tool"), py::arg("args"), py::arg("context"),
        "The Decision on {tool, args, context}, or None if Python must write its JSON.");
  m.def("check_call", &checkCall, py::arg("guard"), py::arg("call"),
        "The Decision on the call dict, or None if Python must write its JSON.");
  m.def("encode", &encode, py::arg("value"), "JSON text of value as check() writes it, or None.");
  m.def("decision_json", &decisionJson, py::arg("decision"), "The decision's whole JSON text.");
}
