#include "daemon/config.hpp"

#include "core/face/link-service-fields.hpp"
#include "core/fw/forwarder-fields.hpp"
#include "core/mgmt/management-fields.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace ndnlab::daemon {
namespace {

using namespace std::chrono_literals;

TEST(Config, EmptyFileGivesDefaults)
{
  DaemonOptions o = parseConfig("");
  DaemonOptions d;
  EXPECT_EQ(o.general.logLevel, LogLevel::Info);
  EXPECT_EQ(o.forwarder.csCapacity, 65536u);
  EXPECT_EQ(o.faceSystem.unixSocket.path, "/run/nfd/nfd.sock");
  EXPECT_EQ(o.faceSystem.tcp.port, 6363);
  EXPECT_EQ(o.faceSystem.udp.port, 6363);
  EXPECT_EQ(o.faceSystem.udp.idleTimeout, 600s);
  EXPECT_EQ(o.faceSystem.udpMtu, 8800u);
  EXPECT_EQ(o.faceSystem.udp.maxOnDemandFaces, 1024u);
  EXPECT_FALSE(o.faceSystem.multicastEnabled);
  EXPECT_EQ(o.faceSystem.multicast.group, "224.0.23.170");
  EXPECT_EQ(o.faceSystem.multicast.port, 56363);
  for (const auto& key : configKeys())
    EXPECT_EQ(key.print(o), key.print(d)) << key.path();
}

TEST(Config, DefaultFileRoundTripsToDefaults)
{
  // The printed default file parses, and yields exactly the defaults.
  std::string text = defaultConfigToml();
  DaemonOptions parsed = parseConfig(text, "default");
  DaemonOptions d;
  for (const auto& key : configKeys()) {
    EXPECT_EQ(key.print(parsed), key.print(d)) << key.path();
    EXPECT_NE(text.find(key.name + " = " + key.print(d)), std::string::npos) << key.path();
    EXPECT_NE(text.find("# " + key.doc), std::string::npos) << key.path();
  }
}

TEST(Config, EveryKeyIsSettable)
{
  // Give every key a non-default value of its type and check it lands in the options.
  std::set<std::string> paths;
  for (const auto& key : configKeys()) {
    EXPECT_TRUE(paths.insert(key.path()).second) << "duplicate key " << key.path();
    EXPECT_FALSE(key.doc.empty()) << key.path();
  }
  std::string text = R"(
[general]
log_level = "debug"
log_file = "/tmp/x.log"
trace_counters = false
trace_file = "/tmp/t.jsonl"
seed = 99
[tables]
cs_max_packets = 10
cs_max_bytes = 1000
cs_scan_limit = 5
cs_admit = false
cs_serve = false
cs_unsolicited_policy = "admit-local"
pit_max_entries = 1234
pit_max_in_records_per_face = 77
pit_share_factor = 0.5
pit_max_lifetime = "1h"
dnl_lifetime = "2s"
dnl_max_entries = 4096
rib_max_routes = 100
[forwarder]
default_strategy = "/localhost/nfd/strategy/multicast"
default_hop_limit = 32
mircc_interval = "250ms"
mircc_ewma_weight = 0.8
mircc_eta = 0.99
mircc_beta = 0.2
mircc_dynamic_beta = true
mircc_delay_gain = 0.5
mircc_initial_delay = "40ms"
mircc_initial_share = 0.5
mircc_shaper_depth = 10
mircc_shaper_hold = "750ms"
mircc_data_size = 1400
mircc_update_on_arrival = true
mircc_queue_stamping = true
[management]
verify_commands = true
[face_system.unix]
enabled = false
path = "/tmp/ndnlab-a.sock"
max_faces = 100
[face_system.tcp]
enabled = false
listen_address = "127.0.0.1"
port = 16363
connect_timeout = "3s"
reconnect_initial_delay = "250ms"
reconnect_max_delay = "30s"
max_faces = 1000
max_faces_per_address = 10
idle_timeout = "2min"
[face_system.websocket]
enabled = true
listen_address = "127.0.0.1"
port = 19696
ping_interval = "5s"
pong_timeout = "2s"
max_faces = 50
max_faces_per_address = 5
[face_system.udp]
enabled = false
listen_address = "127.0.0.1"
port = 16364
idle_timeout = "90s"
mtu = 1400
accept_new_faces = false
max_on_demand_faces = 64
socket_buffer_size = 0
medium = "wireless"
[face_system.udp.impair]
loss = 0.02
delay = "5ms"
jitter = "1ms"
rate = "100Mbit"
queue_limit = 65536
[face_system.multicast]
enabled = true
group = "224.0.23.171"
port = 56364
interface_address = "127.0.0.1"
ttl = 4
loopback = true
mtu = 1200
ad_hoc = true
medium = "wireless"
[face_system.ether]
enabled = true
listen = false
idle_timeout = "30s"
max_on_demand_faces = 16
socket_buffer_size = 131072
mcast = false
mcast_group = "01:00:5e:00:17:ab"
mcast_ad_hoc = true
whitelist = ["veth*", "02:00:00:00:00:01"]
blacklist = ["veth9"]
[face_system.stream]
max_frame_size = 9000
socket_buffer_size = 65536
max_send_queue = 100000
[face_system.link]
congestion_marking = false
congestion_marking_interval = "50ms"
congestion_threshold = 1000
receive_congestion_marking = false
mircc = true
reliability = true
reliability_max_retx = 5
reliability_idle_ack_period = "2ms"
reliability_loss_threshold = 4
reliability_max_unacked_bytes = 1000000
local_fields = true
bundling = true
bundle_interval = 10
bundle_max_entries = 16
bundle_entry_lifetime = "2s"
bundle_loss_detection = true
bundle_gap_k = 2.5
bundle_gap_min = "3ms"
bundle_max_recoveries = 5
bundle_dynamic_interval = true
bundle_interval_min = 8
bundle_cwnd_share = 0.75
bundle_paper_encoder = true
bundle_hold_early_data = false
[limits]
reassembly_max_bytes = 1000000
reassembly_timeout = "1s"
max_fragments = 100
)";
  DaemonOptions o = parseConfig(text);
  DaemonOptions d;
  for (const auto& key : configKeys())
    EXPECT_NE(key.print(o), key.print(d)) << key.path() << " was not set";
  EXPECT_EQ(o.general.logLevel, LogLevel::Debug);
  EXPECT_EQ(o.general.seed, 99u);
  EXPECT_EQ(o.forwarder.pitMaxEntries, 1234u);
  EXPECT_EQ(o.forwarder.dnlLifetime, 2s);
  EXPECT_EQ(o.faceSystem.unixSocket.path, "/tmp/ndnlab-a.sock");
  EXPECT_EQ(o.faceSystem.tcp.port, 16363);
  EXPECT_EQ(o.faceSystem.tcp.reconnect.initialDelay, 250ms);
  EXPECT_EQ(o.faceSystem.udp.idleTimeout, 90s);
  EXPECT_EQ(o.faceSystem.udpMtu, 1400u);
  EXPECT_EQ(o.faceSystem.udp.maxOnDemandFaces, 64u);
  EXPECT_EQ(o.faceSystem.multicast.ttl, 4);
  EXPECT_EQ(o.faceSystem.stream.maxFrameSize, 9000u);
  EXPECT_EQ(o.faceSystem.ether.idleTimeout, 30s);
  EXPECT_EQ(o.faceSystem.etherMulticast.group.toString(), "01:00:5e:00:17:ab");
  EXPECT_EQ(o.faceSystem.etherWhitelist, (std::vector<std::string>{"veth*", "02:00:00:00:00:01"}));
  EXPECT_EQ(o.faceSystem.etherBlacklist, (std::vector<std::string>{"veth9"}));
  EXPECT_EQ(o.faceSystem.link.baseCongestionMarkingInterval, 50ms);
  EXPECT_EQ(o.faceSystem.link.reassemblyTimeout, 1s);
  EXPECT_EQ(o.faceSystem.link.maxFragments, 100u);
}

std::string errorOf(std::string_view text)
{
  try {
    parseConfig(text, "test.toml");
  }
  catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, StringsWithControlCharactersPrintAsTomlThatParsesBack)
{
  // a value TOML reads from escapes (\f, \n, \u007f, backslashes, quotes) prints escaped again
  // (fuzz-config found a form feed printed raw, which the printed file then rejected)
  const DaemonOptions o = parseConfig("[general]\ntrace_file = \"a\\fb\\nc\\u007fd\\\\e\\\"f\\tg\"\n");
  EXPECT_EQ(o.general.traceFile, "a\fb\nc\x7f"
                                 "d\\e\"f\tg");
  std::string printed;
  for (const auto& key : configKeys())
    printed += key.path() + " = " + key.print(o) + "\n";
  EXPECT_EQ(parseConfig(printed).general.traceFile, o.general.traceFile);
}

TEST(Config, UnknownKeysAndTablesAreErrors)
{
  EXPECT_EQ(errorOf("[general]\nlog_levl = \"info\"\n"), "test.toml:2: unknown key 'general.log_levl'\n");
  EXPECT_EQ(errorOf("[face_system.sctp]\nport = 1\n"), "test.toml:1: unknown table [face_system.sctp]\n");
  EXPECT_EQ(errorOf("top = 1\n"), "test.toml:1: unknown key 'top'\n");
}

TEST(Config, WrongTypesAreErrors)
{
  EXPECT_EQ(errorOf("[face_system.tcp]\nport = \"6363\"\n"),
            "test.toml:2: face_system.tcp.port: expected an integer, got a string\n");
  EXPECT_EQ(errorOf("[face_system.tcp]\nenabled = 1\n"),
            "test.toml:2: face_system.tcp.enabled: expected a boolean, got an integer\n");
  EXPECT_EQ(errorOf("[face_system.udp]\nidle_timeout = 600\n"),
            "test.toml:2: face_system.udp.idle_timeout: expected a duration string such as "
            "\"500ms\" or \"10s\", got an integer\n");
  EXPECT_EQ(errorOf("[face_system]\nunix = 3\n"), "test.toml:2: unknown key 'face_system.unix'\n");
}

TEST(Config, BadValuesAreErrors)
{
  EXPECT_NE(errorOf("[face_system.tcp]\nport = 70000\n").find("out of range [0, 65535]"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp]\nmtu = 10\n").find("out of range"), std::string::npos);
  EXPECT_EQ(errorOf("[face_system.udp]\nport = 1\nmax_on_demand_faces = 0\n"),
            "test.toml:3: face_system.udp.max_on_demand_faces: value 0 out of range [1, "
            "9223372036854775807]\n");
  EXPECT_EQ(errorOf("[face_system.udp]\nmax_on_demand_faces = \"many\"\n"),
            "test.toml:2: face_system.udp.max_on_demand_faces: expected an integer, got a string\n");
  EXPECT_NE(errorOf("[general]\nlog_level = \"loud\"\n")
              .find("general.log_level: unknown value \"loud\" (trace, debug, info, warn, error, off)"),
            std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp]\nidle_timeout = \"10 parsecs\"\n").find("bad duration"), std::string::npos);
  EXPECT_NE(errorOf("[tables]\ndnl_lifetime = \"1ms\"\n").find("below the minimum 50ms"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.unix]\npath = \"relative.sock\"\n").find("absolute"), std::string::npos);
  EXPECT_NE(errorOf("[general\n").find("test.toml:1:"), std::string::npos);
}

TEST(Config, BadEtherOptionsAreErrors)
{
  EXPECT_EQ(errorOf("[face_system.ether]\nmcast_group = \"02:00:00:00:00:01\"\n"),
            "test.toml:2: face_system.ether.mcast_group: \"02:00:00:00:00:01\" is not a multicast MAC address "
            "(the first octet is odd)\n");
  EXPECT_EQ(errorOf("[face_system.ether]\nmcast_group = \"01:00:5e:00:17\"\n"),
            "test.toml:2: face_system.ether.mcast_group: bad MAC address \"01:00:5e:00:17\" (xx:xx:xx:xx:xx:xx)\n");
  EXPECT_EQ(errorOf("[face_system.ether]\nwhitelist = \"eth0\"\n"),
            "test.toml:2: face_system.ether.whitelist: expected an array of strings such as [\"veth*\", \"eth0\"], "
            "got a string\n");
  EXPECT_EQ(errorOf("[face_system.ether]\nblacklist = [\"eth0\", 3]\n"),
            "test.toml:2: face_system.ether.blacklist: expected an array of strings, got an integer in it\n");
  EXPECT_NE(errorOf("[face_system.ether]\nwhitelist = [\"\"]\n").find("an empty interface pattern"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.ether]\nwhitelist = [\"a/b\"]\n").find("cannot match an interface name"),
            std::string::npos);
  EXPECT_NE(errorOf("[face_system.ether]\nidle_timeout = \"0s\"\n").find("below the minimum 1ms"), std::string::npos);
  EXPECT_EQ(errorOf("[face_system.ether]\nmcast = \"yes\"\n"),
            "test.toml:2: face_system.ether.mcast: expected a boolean, got a string\n");
  // defaults: off, and when on, every interface with NFD's group
  DaemonOptions d;
  EXPECT_FALSE(d.faceSystem.etherEnabled);
  EXPECT_EQ(d.faceSystem.etherWhitelist, std::vector<std::string>{"*"});
  EXPECT_EQ(d.faceSystem.etherMulticast.group.toString(), "01:00:5e:00:17:aa");
}

TEST(Config, BadAddressesAreErrors)
{
  // Checked when read: before, they failed only after the daemon had started listening.
  EXPECT_EQ(errorOf("[face_system.multicast]\ngroup = \"10.0.0.1\"\n"),
            "test.toml:2: face_system.multicast.group: \"10.0.0.1\" is not an IPv4 multicast "
            "group (224.0.0.0/4)\n");
  EXPECT_EQ(errorOf("[face_system.multicast]\ngroup = \"224.0.23\"\n"),
            "test.toml:2: face_system.multicast.group: bad IPv4 address \"224.0.23\"\n");
  EXPECT_EQ(errorOf("[face_system.multicast]\ninterface_address = \"eth0\"\n"),
            "test.toml:2: face_system.multicast.interface_address: bad IPv4 address \"eth0\"\n");
  EXPECT_EQ(errorOf("[face_system.tcp]\nport = 1\nlisten_address = \"localhost\"\n"),
            "test.toml:3: face_system.tcp.listen_address: bad IP address \"localhost\" (a numeric "
            "IPv4 or IPv6 address, e.g. \"0.0.0.0\" or \"::\")\n");
  EXPECT_NE(errorOf("[face_system.udp]\nlisten_address = \"1.2.3.4.5\"\n").find("bad IP address"), std::string::npos);
  EXPECT_EQ(errorOf("[face_system.tcp]\nlisten_address = \"::\"\n[face_system.multicast]\n"
                    "group = \"239.1.2.3\"\n"),
            "");
}

TEST(Config, UnicastAndMulticastUdpNeedTwoPorts)
{
  EXPECT_EQ(errorOf("[face_system.udp]\nport = 6363\n[face_system.multicast]\nenabled = true\n"
                    "port = 6363\n"),
            "face_system.multicast.port: must differ from face_system.udp.port (6363); one UDP port "
            "cannot serve both\n");
  EXPECT_EQ(errorOf("[face_system.multicast]\nenabled = true\n"), ""); // 6363 and 56363
  EXPECT_EQ(errorOf("[face_system.multicast]\nport = 6363\n"), "");    // multicast off
  EXPECT_EQ(errorOf("[face_system.udp]\nenabled = false\n[face_system.multicast]\nenabled = true\n"
                    "port = 6363\n"),
            "");
}

TEST(Config, SeveralErrorsAreAllReportedInLineOrder)
{
  std::string e = errorOf("[general]\nlog_level = 3\nbogus = true\n[tables]\ncs_max_packets = -1\n");
  EXPECT_EQ(e, "test.toml:2: general.log_level: expected a string, got an integer\n"
               "test.toml:3: unknown key 'general.bogus'\n"
               "test.toml:5: tables.cs_max_packets: value -1 out of range [0, 9223372036854775807]\n");
}

TEST(Config, Durations)
{
  Duration d;
  EXPECT_TRUE(parseDuration("500ms", d));
  EXPECT_EQ(d, 500ms);
  EXPECT_TRUE(parseDuration("2min", d));
  EXPECT_EQ(d, 120s);
  EXPECT_TRUE(parseDuration("1h", d));
  EXPECT_EQ(d, 3600s);
  EXPECT_TRUE(parseDuration("7 us", d));
  EXPECT_EQ(d, 7us);
  EXPECT_FALSE(parseDuration("ms", d));
  EXPECT_FALSE(parseDuration("5", d));
  EXPECT_FALSE(parseDuration("-5s", d));
  EXPECT_FALSE(parseDuration("1.5s", d));
  EXPECT_EQ(formatDuration(600s), "10min");
  EXPECT_EQ(formatDuration(90s), "90s");
  EXPECT_EQ(formatDuration(500ms), "500ms");
  EXPECT_EQ(formatDuration(1500us), "1500us");
  EXPECT_EQ(formatDuration(0s), "0s");
}

/// The keys of the fields of `Options` that declare a daemon section.
template<typename Options>
std::set<std::string> declaredKeys()
{
  std::set<std::string> out;
  visitFields(std::type_identity<Options>{}, [&out](const auto& f) {
    if (!f.info.section.empty())
      out.insert(std::string(f.info.section) + "." + f.info.tomlKey());
  });
  return out;
}

TEST(Config, EveryDeclaredFieldIsAKey)
{
  // a field of a core Options struct with a `section` is a daemon key, and that key writes the
  // struct the daemon hands to the core object
  std::set<std::string> keys;
  for (const ConfigKey& k : configKeys())
    keys.insert(k.path());
  const auto fw = declaredKeys<fw::ForwarderOptions>();
  const auto link = declaredKeys<face::LinkServiceOptions>();
  const auto general = declaredKeys<GeneralOptions>();
  const auto management = declaredKeys<mgmt::ManagementOptions>();
  EXPECT_GE(fw.size(), 10u);
  EXPECT_GE(link.size(), 15u);
  EXPECT_EQ(general.size(), 5u);
  EXPECT_EQ(management.size(), 2u);
  for (const auto& set : {fw, link, general, management})
    for (const std::string& k : set)
      EXPECT_TRUE(keys.count(k)) << k << " is declared but not a key";

  DaemonOptions o = parseConfig("[face_system.link]\nbundle_gap_k = 7.5\ncongestion_threshold = 1000\n"
                                "[limits]\nmax_fragments = 9\n[tables]\npit_max_entries = 77\n");
  EXPECT_EQ(o.faceSystem.link.bundler.gapK, 7.5);
  EXPECT_EQ(o.faceSystem.link.defaultCongestionThreshold, 1000u);
  EXPECT_EQ(o.faceSystem.link.maxFragments, 9u);
  EXPECT_EQ(o.forwarder.pitMaxEntries, 77u);
  // ndnlabd's own defaults: NFD's congestion marking on
  EXPECT_TRUE(DaemonOptions{}.faceSystem.link.allowCongestionMarking);
}

TEST(Config, DocsTableMatchesKeys)
{
  // docs/daemon.md embeds the generated reference table verbatim.
  std::ifstream in(std::string(NDNLAB_SOURCE_DIR) + "/docs/daemon.md");
  ASSERT_TRUE(in) << "docs/daemon.md missing";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find(configReferenceMarkdown()), std::string::npos)
    << "docs/daemon.md is out of date: regenerate the table with ndnlabd --print-config-reference";
}

TEST(Config, ImpairmentDefaultsImpairNothing)
{
  DaemonOptions o = parseConfig("");
  EXPECT_FALSE(o.faceSystem.udpImpair.enabled());
}

TEST(Config, ImpairmentMultihopTestSnippetParses)
{
  // The fallback tests/integration/test_multihop.py writes when sch_netem is missing.
  DaemonOptions o = parseConfig("[face_system.udp.impair]\nloss = 0.02\ndelay = \"5ms\"\n");
  EXPECT_DOUBLE_EQ(o.faceSystem.udpImpair.loss, 0.02);
  EXPECT_EQ(o.faceSystem.udpImpair.delay, 5ms);
  EXPECT_EQ(o.faceSystem.udpImpair.jitter, 0ms);
  EXPECT_TRUE(o.faceSystem.udpImpair.enabled());
  // Integer probabilities are accepted too.
  EXPECT_DOUBLE_EQ(parseConfig("[face_system.udp.impair]\nloss = 1\n").faceSystem.udpImpair.loss, 1.0);
}

TEST(Config, ImpairmentBadValues)
{
  EXPECT_NE(errorOf("[face_system.udp.impair]\nloss = 1.5\n").find("probability"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nloss = \"2%\"\n").find("expected a number"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nrate = \"fast\"\n").find("bad rate"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nrate = 100\n").find("expected a rate string"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nqueue_limit = 0\n").find("out of range"), std::string::npos);
  EXPECT_NE(errorOf("[face_system.udp.impair]\nlag = \"1ms\"\n").find("unknown key"), std::string::npos);
}

TEST(Config, Rates)
{
  Rate r;
  ASSERT_TRUE(parseRate("100Mbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 100e6);
  ASSERT_TRUE(parseRate("1.5gbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 1.5e9);
  ASSERT_TRUE(parseRate("64 kbit", r));
  EXPECT_DOUBLE_EQ(r.bps(), 64e3);
  ASSERT_TRUE(parseRate("0", r));
  EXPECT_DOUBLE_EQ(r.bps(), 0);
  EXPECT_FALSE(parseRate("", r));
  EXPECT_FALSE(parseRate("10", r)); // unit required (except for 0)
  EXPECT_FALSE(parseRate("10MB", r));
  EXPECT_FALSE(parseRate("-1Mbit", r));

  EXPECT_EQ(formatRate(Rate()), "0");
  EXPECT_EQ(formatRate(Rate::mbps(100)), "100Mbit");
  EXPECT_EQ(formatRate(Rate::mbps(1.5)), "1500kbit");
  EXPECT_EQ(formatRate(Rate::gbps(2)), "2Gbit");
  for (const char* text : {"100Mbit", "1500kbit", "2Gbit", "7bit"}) {
    ASSERT_TRUE(parseRate(text, r));
    EXPECT_EQ(formatRate(r), text);
  }
}

} // namespace
} // namespace ndnlab::daemon
