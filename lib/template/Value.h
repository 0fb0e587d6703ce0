//===- Value.h - Values of the template language ----------------*- C++ -*-===//
//
// Templates compute with five kinds of values: 64-bit signed integers, bools,
// strings, lists and maps with string keys. The caller binds names to values
// (a Bindings map) and the template's expressions, `$for` and `$set` make new
// ones. Values are immutable; lists and maps share their storage, so copying
// a value is cheap whatever its size. The language is documented in
// docs/templates.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TEMPLATE_VALUE_H
#define ACCELGEN_TEMPLATE_VALUE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace accelgen {
namespace tmpl {

/// An immutable int, bool, string, list or map.
class Value {
public:
  /// The kinds of values, in the order of the variant below.
  enum class Kind { Int, Bool, String, List, Map };
  using List = std::vector<Value>;
  /// Maps are ordered by key, so iterating one is deterministic.
  using Map = std::map<std::string, Value, std::less<>>;

  /// The integer 0.
  Value() : V(int64_t(0)) {}
  /// An integer; any integral type but bool (the value is taken as int64_t).
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  Value(T I) : V(static_cast<int64_t>(I)) {}
  /// A bool.
  Value(bool B) : V(B) {}
  /// A string.
  Value(const char *S) : V(std::string(S)) {}
  Value(std::string S) : V(std::move(S)) {}
  Value(llvm::StringRef S) : V(S.str()) {}
  /// Other pointers would silently become bools.
  Value(const void *) = delete;
  /// A list.
  Value(List L);
  /// A map.
  Value(Map M);

  Kind kind() const { return static_cast<Kind>(V.index()); }
  bool isInt() const { return kind() == Kind::Int; }
  bool isBool() const { return kind() == Kind::Bool; }
  bool isString() const { return kind() == Kind::String; }
  bool isList() const { return kind() == Kind::List; }
  bool isMap() const { return kind() == Kind::Map; }

  /// The payload; the value must be of that kind.
  int64_t getInt() const { return std::get<int64_t>(V); }
  bool getBool() const { return std::get<bool>(V); }
  const std::string &getString() const { return std::get<std::string>(V); }
  const List &getList() const { return *std::get<ListPtr>(V); }
  const Map &getMap() const { return *std::get<MapPtr>(V); }

  /// How deeply lists and maps nest: 0 for ints, bools and strings, one more
  /// than the deepest element for lists and maps.
  unsigned depth() const { return Depth; }

  /// Deep equality; values of different kinds are unequal.
  friend bool operator==(const Value &A, const Value &B);
  friend bool operator!=(const Value &A, const Value &B) { return !(A == B); }

private:
  using ListPtr = std::shared_ptr<const List>;
  using MapPtr = std::shared_ptr<const Map>;
  std::variant<int64_t, bool, std::string, ListPtr, MapPtr> V;
  unsigned Depth = 0;
};

/// What a template is instantiated with: names to values.
using Bindings = Value::Map;

/// The name of a kind as diagnostics spell it ("int", "bool", "string",
/// "list", "map").
llvm::StringRef kindName(Value::Kind K);

/// The value as written in the language, for diagnostics: 42, true, "a\n",
/// [1, "x"], {"k": 1}. Output longer than \p MaxChars is cut and ends "...".
std::string repr(const Value &V, size_t MaxChars = 80);

} // namespace tmpl
} // namespace accelgen

#endif // ACCELGEN_TEMPLATE_VALUE_H
