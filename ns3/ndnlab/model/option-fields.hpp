#pragma once
// Core Options structs as ns-3 attributes (STYLE.md 3: one Options struct is the single source
// of every knob). A field list names each exposed member of an Options struct once: attribute
// name, one-line help, and how to reach the member. The attribute's initial value is read from
// a default-constructed Options, its accessor reads and writes the member of the Options held
// by the object, so ns-3 attributes and Options defaults cannot drift apart (checked by
// tests/option-fields.t.cpp).
//
// Units convert at this edge: Duration <-> ns3::Time, optional<uint64_t> <-> Uinteger (0 =
// unset), enums and Names <-> strings.

#include "core/runtime/fields.hpp"
#include "core/runtime/units.hpp"

#include <ns3/attribute.h>
#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/integer.h>
#include <ns3/nstime.h>
#include <ns3/object-base.h>
#include <ns3/string.h>
#include <ns3/type-id.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace ndnlab::sim {

/// Finds the Options struct inside an object (nullptr if the object is not the expected type).
template<typename Options>
using OptionsResolver = std::function<Options*(ns3::ObjectBase*)>;

/// One exposed member of `Options`.
template<typename Options>
struct OptionField
{
  std::string name; ///< ns-3 attribute name (CamelCase)
  std::string help;
  /// The value of this member in `o`, as an attribute value.
  std::function<ns3::Ptr<ns3::AttributeValue>(const Options& o)> value;
  ns3::Ptr<const ns3::AttributeChecker> checker;
  /// Builds the accessor for objects whose Options are found by `resolve`.
  std::function<ns3::Ptr<const ns3::AttributeAccessor>(OptionsResolver<Options> resolve)> accessor;
};

namespace detail {

template<typename Options, typename Value>
class OptionAccessor final : public ns3::AttributeAccessor
{
public:
  using Setter = std::function<bool(Options&, const Value&)>;
  using Getter = std::function<void(const Options&, Value&)>;

  OptionAccessor(OptionsResolver<Options> resolve, Setter set, Getter get)
    : m_resolve(std::move(resolve)), m_set(std::move(set)), m_get(std::move(get))
  {}

  bool Set(ns3::ObjectBase* object, const ns3::AttributeValue& value) const override
  {
    Options* o = m_resolve(object);
    const auto* v = dynamic_cast<const Value*>(&value);
    return o != nullptr && v != nullptr && m_set(*o, *v);
  }
  bool Get(const ns3::ObjectBase* object, ns3::AttributeValue& value) const override
  {
    Options* o = m_resolve(const_cast<ns3::ObjectBase*>(object));
    auto* v = dynamic_cast<Value*>(&value);
    if (o == nullptr || v == nullptr)
      return false;
    m_get(*o, *v);
    return true;
  }
  bool HasGetter() const override { return true; }
  bool HasSetter() const override { return true; }

private:
  OptionsResolver<Options> m_resolve;
  Setter m_set;
  Getter m_get;
};

} // namespace detail

/// A field whose attribute type is `Value` (e.g. ns3::TimeValue); `set` may reject a value.
template<typename Options, typename Value>
OptionField<Options> makeOptionField(std::string name, std::string help, ns3::Ptr<const ns3::AttributeChecker> checker,
                                     std::function<bool(Options&, const Value&)> set,
                                     std::function<void(const Options&, Value&)> get)
{
  OptionField<Options> f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.checker = std::move(checker);
  f.value = [get](const Options& o) {
    auto v = ns3::Create<Value>();
    get(o, *v);
    return ns3::Ptr<ns3::AttributeValue>(v);
  };
  f.accessor = [set, get](OptionsResolver<Options> resolve) {
    return ns3::Ptr<const ns3::AttributeAccessor>(
      ns3::Create<detail::OptionAccessor<Options, Value>>(std::move(resolve), set, get));
  };
  return f;
}

/// A field for member `T` reached by `ref`; the attribute type follows from T:
/// Duration -> Time, double -> Double, bool -> Boolean, std::string -> String, unsigned
/// integers -> Uinteger (range-checked), signed integers -> Integer,
/// optional<uint64_t> -> Uinteger with 0 meaning unset.
template<typename Options, typename Ref>
OptionField<Options> optionField(std::string name, std::string help, Ref ref)
{
  using T = std::remove_cvref_t<decltype(ref(std::declval<Options&>()))>;
  auto mut = [ref](Options& o) -> T& { return ref(o); };
  auto cst = [ref](const Options& o) -> const T& { return ref(const_cast<Options&>(o)); };
  if constexpr (std::is_same_v<T, Duration>) {
    return makeOptionField<Options, ns3::TimeValue>(
      std::move(name), std::move(help), ns3::MakeTimeChecker(),
      [mut](Options& o, const ns3::TimeValue& v) {
        mut(o) = Duration(v.Get().GetNanoSeconds());
        return true;
      },
      [cst](const Options& o, ns3::TimeValue& v) { v.Set(ns3::NanoSeconds(cst(o).count())); });
  }
  else if constexpr (std::is_same_v<T, bool>) {
    return makeOptionField<Options, ns3::BooleanValue>(
      std::move(name), std::move(help), ns3::MakeBooleanChecker(),
      [mut](Options& o, const ns3::BooleanValue& v) {
        mut(o) = v.Get();
        return true;
      },
      [cst](const Options& o, ns3::BooleanValue& v) { v.Set(cst(o)); });
  }
  else if constexpr (std::is_floating_point_v<T>) {
    return makeOptionField<Options, ns3::DoubleValue>(
      std::move(name), std::move(help), ns3::MakeDoubleChecker<double>(),
      [mut](Options& o, const ns3::DoubleValue& v) {
        mut(o) = static_cast<T>(v.Get());
        return true;
      },
      [cst](const Options& o, ns3::DoubleValue& v) { v.Set(static_cast<double>(cst(o))); });
  }
  else if constexpr (std::is_same_v<T, std::string>) {
    return makeOptionField<Options, ns3::StringValue>(
      std::move(name), std::move(help), ns3::MakeStringChecker(),
      [mut](Options& o, const ns3::StringValue& v) {
        mut(o) = v.Get();
        return true;
      },
      [cst](const Options& o, ns3::StringValue& v) { v.Set(cst(o)); });
  }
  else if constexpr (std::is_same_v<T, std::optional<uint64_t>>) {
    return makeOptionField<Options, ns3::UintegerValue>(
      std::move(name), std::move(help), ns3::MakeUintegerChecker<uint64_t>(),
      [mut](Options& o, const ns3::UintegerValue& v) {
        mut(o) = v.Get() == 0 ? std::nullopt : std::optional<uint64_t>(v.Get());
        return true;
      },
      [cst](const Options& o, ns3::UintegerValue& v) { v.Set(cst(o).value_or(0)); });
  }
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
    return makeOptionField<Options, ns3::UintegerValue>(
      std::move(name), std::move(help), ns3::MakeUintegerChecker<T>(),
      [mut](Options& o, const ns3::UintegerValue& v) {
        if (v.Get() > std::numeric_limits<T>::max())
          return false;
        mut(o) = static_cast<T>(v.Get());
        return true;
      },
      [cst](const Options& o, ns3::UintegerValue& v) { v.Set(static_cast<uint64_t>(cst(o))); });
  }
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return makeOptionField<Options, ns3::IntegerValue>(
      std::move(name), std::move(help), ns3::MakeIntegerChecker<T>(),
      [mut](Options& o, const ns3::IntegerValue& v) {
        if (v.Get() > std::numeric_limits<T>::max() || v.Get() < std::numeric_limits<T>::min())
          return false;
        mut(o) = static_cast<T>(v.Get());
        return true;
      },
      [cst](const Options& o, ns3::IntegerValue& v) { v.Set(static_cast<int64_t>(cst(o))); });
  }
  else {
    static_assert(sizeof(T) == 0, "no attribute mapping for this member type; use stringField");
  }
}

/// A field kept as a string attribute, with explicit print/parse (enums, Names).
/// `parse` returns false for an invalid string.
template<typename Options>
OptionField<Options> stringField(std::string name, std::string help, std::function<std::string(const Options&)> print,
                                 std::function<bool(Options&, const std::string&)> parse)
{
  return makeOptionField<Options, ns3::StringValue>(
    std::move(name), std::move(help), ns3::MakeStringChecker(),
    [parse](Options& o, const ns3::StringValue& v) { return parse(o, v.Get()); },
    [print](const Options& o, ns3::StringValue& v) { v.Set(print(o)); });
}

/// An enum member reached by `ref` as a String attribute: written with `print` (its toString)
/// and read with `parse` (its optional-returning parser; nullopt rejects the value).
template<typename Options, typename Ref, typename Print, typename Parse>
OptionField<Options> enumField(std::string name, std::string help, Ref ref, Print print, Parse parse)
{
  return stringField<Options>(
    std::move(name), std::move(help),
    [ref, print](const Options& o) { return std::string(print(ref(const_cast<Options&>(o)))); },
    [ref, parse](Options& o, const std::string& s) {
      auto v = parse(s);
      if (v)
        ref(o) = *v;
      return v.has_value();
    });
}

/// The attribute help of a core field: its doc, and its unit unless the attribute carries one.
inline std::string attributeHelp(const fields::Info& info, bool isTime)
{
  return info.help(isTime ? std::string_view{} : info.unit);
}

/// The attribute of a core field (core/runtime/fields.hpp), with its range as the checker
/// (open bounds are checked by the Options' validate()).
template<typename Options, typename T>
OptionField<Options> attributeOf(const fields::Field<Options, T>& f)
{
  auto ref = f.ref;
  auto of = optionField<Options>(f.info.attributeName(), attributeHelp(f.info, std::is_same_v<T, Duration>),
                                 [ref](Options& o) -> T& { return ref(o); });
  if (f.info.range && f.info.range->bounded()) {
    const fields::Range r = *f.info.range;
    if constexpr (std::is_same_v<T, Duration>)
      of.checker = ns3::MakeTimeChecker(ns3::Seconds(r.min / 1e3),
                                        std::isfinite(r.max) ? ns3::Seconds(r.max / 1e3) : ns3::Time::Max());
    else if constexpr (std::is_floating_point_v<T>)
      of.checker = ns3::MakeDoubleChecker<double>(r.min, r.max);
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
      of.checker = ns3::MakeIntegerChecker<T>(
        static_cast<T>(r.min), std::isfinite(r.max) ? static_cast<T>(r.max) : std::numeric_limits<T>::max());
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>)
      of.checker = ns3::MakeUintegerChecker<T>(static_cast<T>(std::max(0.0, r.min)),
                                               r.max < static_cast<double>(std::numeric_limits<T>::max())
                                                 ? static_cast<T>(r.max)
                                                 : std::numeric_limits<T>::max());
  }
  return of;
}

template<typename Options, typename E>
OptionField<Options> attributeOf(const fields::EnumField<Options, E>& f)
{
  auto ref = f.ref;
  return enumField<Options>(
    f.info.attributeName(), attributeHelp(f.info, false), [ref](Options& o) -> E& { return ref(o); }, f.print, f.parse);
}

/// The attributes of every field the core declares for `Options` (visitFields next to the
/// struct) that ns-3 or the scenarios expose.
template<typename Options>
std::vector<OptionField<Options>> attributeFields()
{
  std::vector<OptionField<Options>> out;
  visitFields(std::type_identity<Options>{}, [&out](const auto& f) {
    if ((f.info.hosts & (fields::Ns3 | fields::Scenario)) != 0)
      out.push_back(attributeOf(f));
  });
  return out;
}

/// Adds one attribute per field to `tid`, with the initial value taken from `defaults`.
template<typename Options>
ns3::TypeId addOptionAttributes(ns3::TypeId tid, const std::vector<OptionField<Options>>& fields,
                                OptionsResolver<Options> resolve, const Options& defaults = Options{})
{
  for (const auto& f : fields)
    tid.AddAttribute(f.name, f.help, *f.value(defaults), f.accessor(resolve), f.checker);
  return tid;
}

} // namespace ndnlab::sim
