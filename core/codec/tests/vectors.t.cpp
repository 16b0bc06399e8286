// Decodes every shared vector in tests/vectors/ (format: tests/vectors/README.md), checks the
// decoded fields against the `# expect:` lines, and checks that canonical valid vectors
// re-encode to the same bytes. tests/python/test_vectors.py checks the same files with python-ndn,
// tests/interop/test_ndnts_vectors.py with NDNts.

#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace ndnlab {
namespace {

namespace fs = std::filesystem;

struct Vector
{
  std::string file;
  std::map<std::string, std::string> expect;
  Buffer bytes;
};

std::string trim(std::string s)
{
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
  s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
  return s;
}

Vector load(const fs::path& path)
{
  Vector v;
  v.file = path.filename().string();
  std::ifstream in(path);
  std::string line, hexText;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    if (t.rfind("# expect:", 0) == 0) {
      std::string kv = t.substr(9);
      auto eq = kv.find('=');
      EXPECT_NE(eq, std::string::npos) << v.file << ": bad expect line: " << line;
      if (eq != std::string::npos)
        v.expect[trim(kv.substr(0, eq))] = trim(kv.substr(eq + 1));
      continue;
    }
    auto hash = line.find('#');
    hexText += line.substr(0, hash);
    hexText += ' ';
  }
  EXPECT_TRUE(fromHex(hexText, v.bytes)) << v.file << ": bad hex";
  return v;
}

std::vector<Vector> loadAll()
{
  std::vector<Vector> all;
  fs::path dir = fs::path(NDNLAB_SOURCE_DIR) / "tests" / "vectors";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".hex")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files)
    all.push_back(load(f));
  return all;
}

std::string boolStr(bool b)
{
  return b ? "true" : "false";
}

std::string keyLocatorStr(const std::optional<KeyLocator>& kl)
{
  if (!kl)
    return "none";
  if (const Name* n = std::get_if<Name>(&*kl))
    return n->toUri();
  return "keydigest:" + toHex(std::get<KeyDigest>(*kl).bytes);
}

/// Checks `expect` keys in `handled` against `actual`; returns the keys it did not know.
class Checker
{
public:
  Checker(const Vector& v) : m_v(v) {}

  void check(const std::string& key, const std::string& actual)
  {
    m_known.insert(key);
    auto it = m_v.expect.find(key);
    if (it != m_v.expect.end()) {
      EXPECT_EQ(actual, it->second) << m_v.file << ": " << key;
    }
  }
  void known(const std::string& key) { m_known.insert(key); }
  void checkNoUnknownKeys()
  {
    for (const auto& [k, _] : m_v.expect)
      EXPECT_TRUE(m_known.count(k)) << m_v.file << ": unknown expect key '" << k << "'";
  }

private:
  const Vector& m_v;
  std::set<std::string> m_known{"kind", "canonical", "python_ndn", "ndnts"};
};

void checkSignature(Checker& c, const SignatureInfo& si, ByteSpan value)
{
  c.check("sig_type", std::to_string(si.type));
  c.check("key_locator", keyLocatorStr(si.keyLocator));
  c.check("sig_nonce", si.nonce ? toHex(*si.nonce) : "none");
  c.check("sig_time", si.time ? std::to_string(*si.time) : "none");
  c.check("sig_seq", si.seqNum ? std::to_string(*si.seqNum) : "none");
  c.check("sig_value", toHex(value));
}

template<typename T>
void checkError(const Vector& v, const DecodeResult<T>& r)
{
  ASSERT_FALSE(r) << v.file << ": decoded but expected error " << v.expect.at("error");
  EXPECT_EQ(reasonName(r.error().code), v.expect.at("error")) << v.file;
  if (v.expect.count("error_tlv")) {
    EXPECT_EQ(std::to_string(r.error().tlvType), v.expect.at("error_tlv")) << v.file;
  }
  // The typo guard of Checker, for the keys an invalid vector may have.
  static const std::set<std::string> known{"kind", "error", "error_tlv", "python_ndn", "ndnts"};
  for (const auto& [k, _] : v.expect)
    EXPECT_TRUE(known.count(k)) << v.file << ": unknown expect key '" << k << "' for an invalid vector";
}

void checkName(const Vector& v)
{
  auto r = Name::decode(v.bytes);
  if (v.expect.count("error"))
    return checkError(v, r);
  ASSERT_TRUE(r) << v.file << ": " << reasonName(r.error().code);
  Checker c(v);
  c.check("name", r->toUri());
  c.check("components", std::to_string(r->size()));
  std::string types;
  for (size_t i = 0; i < r->size(); ++i)
    types += (i ? "," : "") + std::to_string((*r)[static_cast<ptrdiff_t>(i)].type());
  c.check("component_types", types);
  c.checkNoUnknownKeys();
  // The URI form parses back to the same name, and the name re-encodes to the same bytes.
  EXPECT_EQ(Name(r->toUri()), *r) << v.file;
  if (v.expect.count("name")) {
    EXPECT_EQ(Name(v.expect.at("name")).wireEncode(), v.bytes) << v.file;
  }
  EXPECT_EQ(r->wireEncode(), v.bytes) << v.file;
}

void checkInterest(const Vector& v)
{
  auto wire = std::make_shared<const Buffer>(v.bytes);
  auto r = Interest::decode(wire);
  if (v.expect.count("error"))
    return checkError(v, r);
  ASSERT_TRUE(r) << v.file << ": " << reasonName(r.error().code) << " type " << r.error().tlvType;
  const Interest& i = *r;
  Checker c(v);
  c.check("name", i.name().toUri());
  c.check("can_be_prefix", boolStr(i.canBePrefix()));
  c.check("must_be_fresh", boolStr(i.mustBeFresh()));
  char nonce[16];
  std::snprintf(nonce, sizeof(nonce), "0x%08x", i.nonce().value_or(0));
  c.check("nonce", i.nonce() ? nonce : "none");
  c.check("lifetime_ms", i.hasLifetime()
                           ? std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(i.lifetime()).count())
                           : "none");
  c.check("hop_limit", i.hopLimit() ? std::to_string(*i.hopLimit()) : "none");
  std::string fh;
  for (const auto& n : i.forwardingHint())
    fh += (fh.empty() ? "" : ",") + n.toUri();
  c.check("forwarding_hint", fh.empty() ? "none" : fh);
  c.check("app_params", i.appParameters() ? toHex(*i.appParameters()) : "none");
  c.check("params_digest_valid", boolStr(i.hasValidParamsDigest()));
  if (i.signatureInfo())
    checkSignature(c, *i.signatureInfo(), *i.signatureValue());
  c.check("signed_portion_sha256", toHex(sha256(i.signedPortion())));
  c.checkNoUnknownKeys();

  EXPECT_EQ(i.wireEncode(), wire) << v.file << ": decoded Interest must keep its wire";
  if (v.expect.count("canonical") == 0 || v.expect.at("canonical") != "false") {
    Interest copy = i;
    copy.setName(copy.name()); // drop the cached wire
    EXPECT_EQ(toHex(*copy.wireEncode()), toHex(v.bytes)) << v.file << ": re-encoding differs";
  }
}

void checkData(const Vector& v)
{
  auto wire = std::make_shared<const Buffer>(v.bytes);
  auto r = Data::decode(wire);
  if (v.expect.count("error"))
    return checkError(v, r);
  ASSERT_TRUE(r) << v.file << ": " << reasonName(r.error().code) << " type " << r.error().tlvType;
  const Data& d = *r;
  Checker c(v);
  c.check("name", d.name().toUri());
  c.check("content_type", std::to_string(d.contentType()));
  c.check("freshness_ms",
          std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d.freshnessPeriod()).count()));
  c.check("final_block_id", d.finalBlockId() ? d.finalBlockId()->toUri() : "none");
  c.check("content", toHex(d.content()));
  checkSignature(c, d.signatureInfo(), d.signatureValue());
  c.check("signed_portion_sha256", toHex(sha256(d.signedPortion())));
  c.check("implicit_digest", toHex(d.implicitDigest()));
  c.checkNoUnknownKeys();
  EXPECT_EQ(d.fullName()[-1].value().size(), 32u);

  EXPECT_EQ(d.wireEncode(), wire) << v.file << ": decoded Data must keep its wire";
  if (v.expect.count("canonical") == 0 || v.expect.at("canonical") != "false") {
    Data copy = d;
    copy.setName(copy.name());
    EXPECT_EQ(toHex(*copy.wireEncode()), toHex(v.bytes)) << v.file << ": re-encoding differs";
  }
}

TEST(Vectors, AllFilesDecodeAsExpected)
{
  auto all = loadAll();
  ASSERT_GE(all.size(), 10u) << "vectors not found under " NDNLAB_SOURCE_DIR "/tests/vectors";
  size_t valid = 0, invalid = 0;
  for (const auto& v : all) {
    SCOPED_TRACE(v.file);
    ASSERT_TRUE(v.expect.count("kind")) << v.file << ": missing '# expect: kind'";
    const std::string& kind = v.expect.at("kind");
    (v.expect.count("error") ? invalid : valid)++;
    if (kind == "name")
      checkName(v);
    else if (kind == "interest")
      checkInterest(v);
    else if (kind == "data")
      checkData(v);
    else
      ADD_FAILURE() << v.file << ": unknown kind " << kind;
  }
  EXPECT_GE(valid, 5u);
  EXPECT_GE(invalid, 5u);
}

} // namespace
} // namespace ndnlab
