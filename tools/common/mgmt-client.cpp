#include "tools/common/mgmt-client.hpp"
#include "tools/common/runtime.hpp"

#include "core/mgmt/command.hpp"

namespace ndnlab::tools {

MgmtClient::MgmtClient(io::AsioEnv& env, ForwarderConnection& conn)
  : m_env(env), m_conn(conn), m_signer(m_digest, env.clock(), env.rng())
{}

MgmtClient::~MgmtClient() = default;

void MgmtClient::command(std::string_view module, std::string_view verb, const mgmt::ControlParameters& cp,
                         CommandCallback done)
{
  Interest interest(mgmt::makeCommandName(topPrefix(), module, verb, cp));
  interest.setLifetime(std::chrono::seconds(4));
  interest.setNonce(m_env.rng().next32());
  m_signer.sign(interest);
  std::string what = std::string(module) + "/" + std::string(verb);
  m_conn.request(interest, [done = std::move(done), what](const Data* data, const Nack* nack) {
    if (nack != nullptr) {
      done(fail(std::string(what) + ": Nack (" + std::string(toString(nack->reason)) + ")"));
      return;
    }
    if (data == nullptr) {
      done(fail(what + ": no response from the forwarder (timeout)"));
      return;
    }
    auto resp = mgmt::ControlResponse::decode(data->content());
    if (!resp) {
      done(fail(what + ": malformed ControlResponse (" + std::string(reasonName(resp.error().code)) + ")"));
      return;
    }
    done(resp.value());
  });
}

void MgmtClient::dataset(std::string_view module, std::string_view verb, DatasetCallback done)
{
  Name name = topPrefix();
  name.append(module).append(verb);
  fetchDataset(std::move(name), std::move(done));
}

void MgmtClient::dataset(std::string_view module, std::string_view verb, ByteSpan parameter, DatasetCallback done)
{
  Name name = topPrefix();
  name.append(module).append(verb).append(tlv::GenericNameComponent, parameter);
  fetchDataset(std::move(name), std::move(done));
}

void MgmtClient::fetchDataset(Name name, DatasetCallback done)
{
  app::SegmentFetcher::Options opts;
  opts.discovery = app::VersionDiscovery::FirstSegment;
  opts.pipeline = "fixed";
  opts.window.fixedSize = 4;
  opts.mustBeFresh = true;
  opts.retries = 3;
  opts.lifetime = std::chrono::seconds(4);
  m_fetcher = std::make_unique<app::SegmentFetcher>(m_env, m_conn, opts);
  auto content = std::make_shared<Buffer>();
  auto cb = std::make_shared<DatasetCallback>(std::move(done));
  // The fetcher may not be destroyed inside its own callbacks: finish on the next turn.
  auto finish = [this, cb](Result<Buffer, std::string> r) {
    m_env.timers().schedule(Duration::zero(), [this, cb, r = std::move(r)] {
      m_fetcher.reset();
      (*cb)(r);
    });
  };
  m_fetcher->onBytes = [content](ByteSpan b) { content->insert(content->end(), b.begin(), b.end()); };
  m_fetcher->onComplete = [content, finish] { finish(*content); };
  m_fetcher->onError = [finish, name](const app::FetchError& e) {
    // A reply that is not a dataset segment is a ControlResponse: the forwarder refused the
    // request or does not have this dataset (an older forwarder answers faces/query with 501).
    std::string hint =
      e.code == app::FetchErrc::BadMetadata ? " (the forwarder refused it or does not provide this dataset)" : "";
    finish(fail(name.toUri() + ": " + e.message + hint));
  };
  m_fetcher->start(name);
}

void MgmtClient::registerPrefix(const Name& prefix, std::function<void(const std::string&)> done)
{
  mgmt::ControlParameters cp;
  cp.name = prefix;
  command("rib", "register", cp, [prefix, done = std::move(done)](const auto& r) {
    if (!r) {
      done(r.error());
      return;
    }
    if (r->code != mgmt::status::Ok) {
      done("registering " + prefix.toUri() + " failed: " + std::to_string(r->code) + " " + r->text);
      return;
    }
    done("");
  });
}

void MgmtClient::servePrefix(ToolRuntime& rt, const Name& prefix, bool noRegister, int& rc, std::function<void()> ready)
{
  if (noRegister) {
    ready();
    return;
  }
  registerPrefix(prefix, [&rt, &rc, prefix, ready = std::move(ready)](const std::string& err) {
    if (!err.empty()) {
      printError("failed to register prefix " + prefix.toUri() + ": " + err);
      rc = exitcode::Failure;
      rt.stop();
      return;
    }
    ready();
  });
}

} // namespace ndnlab::tools
