#include "core/fec/reed-solomon.hpp"

#include <isa-l/erasure_code.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ndnlab::fec {

size_t parityCount(size_t dataShards, double ratio)
{
  if (!(ratio >= 0) || !std::isfinite(ratio))
    throw std::invalid_argument("parity ratio must be a finite number >= 0");
  if (ratio == 0 || dataShards == 0)
    return 0;
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(ratio * static_cast<double>(dataShards) - 1e-9)));
}

ReedSolomon::ReedSolomon(size_t k, size_t m) : m_k(k), m_m(m)
{
  if (k == 0)
    throw std::invalid_argument("Reed-Solomon needs at least one data shard");
  if (k + m > MaxShards)
    throw std::invalid_argument("Reed-Solomon over GF(2^8) takes at most 255 shards, not " + std::to_string(k + m));
  m_matrix.resize((k + m) * k);
  gf_gen_cauchy1_matrix(m_matrix.data(), static_cast<int>(k + m), static_cast<int>(k));
  if (m > 0) {
    m_parityTables.resize(32 * k * m);
    ec_init_tables(static_cast<int>(k), static_cast<int>(m), m_matrix.data() + k * k, m_parityTables.data());
  }
}

std::vector<Shard> ReedSolomon::encode(std::span<const ShardView> data) const
{
  if (data.size() != m_k)
    throw std::invalid_argument("encode takes " + std::to_string(m_k) + " data shards, not " +
                                std::to_string(data.size()));
  const size_t len = data[0].size();
  if (len == 0 || std::any_of(data.begin(), data.end(), [len](ShardView s) { return s.size() != len; }))
    throw std::invalid_argument("data shards must all have one size of at least one byte");
  std::vector<Shard> parity(m_m, Shard(len));
  if (m_m == 0)
    return parity;
  std::vector<unsigned char*> in(m_k), out(m_m);
  for (size_t i = 0; i < m_k; ++i)
    in[i] = const_cast<unsigned char*>(data[i].data()); // ISA-L reads its sources only
  for (size_t i = 0; i < m_m; ++i)
    out[i] = parity[i].data();
  ec_encode_data(static_cast<int>(len), static_cast<int>(m_k), static_cast<int>(m_m),
                 const_cast<unsigned char*>(m_parityTables.data()), in.data(), out.data());
  return parity;
}

std::optional<std::vector<Shard>> ReedSolomon::recover(std::span<const std::optional<ShardView>> shards) const
{
  if (shards.size() != m_k + m_m)
    throw std::invalid_argument("recover takes " + std::to_string(m_k + m_m) + " shard slots, not " +
                                std::to_string(shards.size()));
  std::vector<size_t> present;
  size_t len = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    if (!shards[i])
      continue;
    if (present.empty())
      len = shards[i]->size();
    else if (shards[i]->size() != len)
      throw std::invalid_argument("the shards that arrived differ in size");
    present.push_back(i);
  }
  if (present.size() < m_k)
    return std::nullopt;
  if (len == 0)
    throw std::invalid_argument("shards must hold at least one byte");

  std::vector<Shard> data(m_k);
  std::vector<size_t> missing;
  for (size_t i = 0; i < m_k; ++i) {
    if (shards[i])
      data[i].assign(shards[i]->begin(), shards[i]->end());
    else
      missing.push_back(i);
  }
  if (missing.empty())
    return data;

  // the rows of the generator of k shards that arrived; its inverse maps them to the data
  present.resize(m_k);
  std::vector<uint8_t> sub(m_k * m_k), inverse(m_k * m_k);
  for (size_t r = 0; r < m_k; ++r)
    std::copy_n(m_matrix.begin() + static_cast<std::ptrdiff_t>(present[r] * m_k), m_k,
                sub.begin() + static_cast<std::ptrdiff_t>(r * m_k));
  if (gf_invert_matrix(sub.data(), inverse.data(), static_cast<int>(m_k)) != 0)
    throw std::logic_error("a Cauchy sub-matrix was singular"); // cannot happen: all are invertible

  // each missing data shard is its row of the inverse applied to the shards that arrived
  std::vector<uint8_t> rows(missing.size() * m_k);
  for (size_t j = 0; j < missing.size(); ++j)
    std::copy_n(inverse.begin() + static_cast<std::ptrdiff_t>(missing[j] * m_k), m_k,
                rows.begin() + static_cast<std::ptrdiff_t>(j * m_k));
  std::vector<uint8_t> tables(32 * m_k * missing.size());
  ec_init_tables(static_cast<int>(m_k), static_cast<int>(missing.size()), rows.data(), tables.data());
  std::vector<unsigned char*> in(m_k), out(missing.size());
  for (size_t r = 0; r < m_k; ++r)
    in[r] = const_cast<unsigned char*>(shards[present[r]]->data());
  for (size_t j = 0; j < missing.size(); ++j) {
    data[missing[j]].resize(len);
    out[j] = data[missing[j]].data();
  }
  ec_encode_data(static_cast<int>(len), static_cast<int>(m_k), static_cast<int>(missing.size()), tables.data(),
                 in.data(), out.data());
  return data;
}

std::vector<Shard> split(ShardView payload, size_t shardSize)
{
  if (shardSize == 0)
    throw std::invalid_argument("shard size must be at least one byte");
  std::vector<Shard> out;
  for (size_t off = 0; off < payload.size(); off += shardSize) {
    const size_t n = std::min(shardSize, payload.size() - off);
    Shard s(shardSize, 0);
    std::copy_n(payload.begin() + static_cast<std::ptrdiff_t>(off), n, s.begin());
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<uint8_t> join(std::span<const Shard> shards, size_t length)
{
  std::vector<uint8_t> out;
  out.reserve(length);
  for (const Shard& s : shards) {
    const size_t n = std::min(s.size(), length - out.size());
    out.insert(out.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n));
    if (out.size() == length)
      return out;
  }
  if (out.size() < length)
    throw std::invalid_argument("the shards hold fewer bytes than the length asked for");
  return out;
}

} // namespace ndnlab::fec
