// `ndnlab stream publish PREFIX` / `ndnlab stream play PREFIX`: the shells of
// stream::StreamProducer and stream::StreamConsumer (core/stream/, docs/mechanisms/streaming.md),
// issue 29 item 2. publish reads IVF inputs (one per bitrate; a file as if live at its own
// frame rate, stdin as it comes) or makes synthetic frames, and ends the stream at the end of
// its input; play writes the rendered frames as IVF, shows a live status line on a terminal
// and prints a summary (text or JSON). Options come from the engines' field lists
// (core/stream/producer-fields.hpp, consumer-fields.hpp); the pieces with logic of their own
// are in tools/stream/stream-pieces.hpp. docs/tools.md "ndnlab stream".

#include "core/stream/consumer-fields.hpp"
#include "core/stream/producer-fields.hpp"
#include "core/stream/synthetic.hpp"
#include "core/stream/trace.hpp"
#include "tools/common/connection.hpp"
#include "tools/common/mgmt-client.hpp"
#include "tools/common/option-flags.hpp"
#include "tools/common/runtime.hpp"
#include "tools/common/signing.hpp"
#include "tools/common/summaries.hpp"
#include "tools/stream/stream-pieces.hpp"

#include <asio/posix/stream_descriptor.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <list>
#include <string>

namespace ndnlab::tools {

namespace {

using json = nlohmann::ordered_json;
using streamtool::InputSpec;

/// `v` seconds as a Duration.
Duration seconds(double v)
{
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(v));
}

// --- publish --------------------------------------------------------------------------------

/// One --input: its IVF reader and how it is read. A regular file is paced by its frames'
/// timestamps (as `ffmpeg -re` does); anything else (stdin, a FIFO) is published as it comes.
struct Input
{
  InputSpec spec;
  size_t thread = 0;
  int fd = -1;
  bool paced = false;
  bool done = false;
  stream::IvfReader reader;
  std::optional<stream::IvfFrame> pending; ///< paced: the frame its timer will publish
  uint64_t firstTs = 0;
  TimePoint start{};
  TimerId timer = 0;
  std::unique_ptr<asio::posix::stream_descriptor> sd;
  std::array<uint8_t, 65536> buf{};

  ~Input()
  {
    if (sd)
      sd->release(); // the fd is closed below, once
    if (fd >= 0)
      ::close(fd);
  }
};

/// Blocking read of up to buf.size() bytes into the reader; 0 at the end of the input. Throws
/// IvfError for malformed bytes; returns -1 with errno for a read error.
ssize_t readChunk(Input& in)
{
  ssize_t n;
  do
    n = ::read(in.fd, in.buf.data(), in.buf.size());
  while (n < 0 && errno == EINTR);
  if (n > 0)
    in.reader.feed(std::span<const uint8_t>(in.buf.data(), static_cast<size_t>(n)));
  return n;
}

/// Opens `in` and checks it: a regular file is read to its end once (every frame header, the
/// key flags' codec), the rest up to the file header. Returns an exit code on failure, with the
/// reason printed.
std::optional<int> openInput(Input& in)
{
  const std::string& path = in.spec.path;
  in.fd = path == "-" ? ::dup(0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) {
    printError("cannot open input " + path + ": " + std::strerror(errno));
    return exitcode::FileError;
  }
  struct stat st
  {};
  in.paced = ::fstat(in.fd, &st) == 0 && S_ISREG(st.st_mode);
  try {
    if (in.paced) {
      stream::IvfReader check;
      std::swap(check, in.reader);
      ssize_t n;
      while ((n = readChunk(in)) > 0)
        while (in.reader.next()) {}
      if (n < 0) {
        printError("reading input " + path + ": " + std::strerror(errno));
        return exitcode::FileError;
      }
      in.reader.finish();
      if (!in.reader.header())
        throw stream::IvfError("empty input: no IVF file header");
      const auto header = *in.reader.header();
      std::swap(check, in.reader); // the real reader starts at offset 0
      ::lseek(in.fd, 0, SEEK_SET);
      if (header.fourcc != "VP80" && header.fourcc != "VP90")
        throw stream::IvfError("codec " + header.fourcc + ": key frames are told for VP8 and VP9 only");
      return std::nullopt;
    }
    while (!in.reader.header()) {
      ssize_t n = readChunk(in);
      if (n < 0) {
        printError("reading input " + path + ": " + std::strerror(errno));
        return exitcode::FileError;
      }
      if (n == 0) {
        in.reader.finish();
        throw stream::IvfError("empty input: no IVF file header");
      }
    }
    if (in.reader.header()->fourcc != "VP80" && in.reader.header()->fourcc != "VP90")
      throw stream::IvfError("codec " + in.reader.header()->fourcc + ": key frames are told for VP8 and VP9 only");
  }
  catch (const stream::IvfError& e) {
    printError("input " + path + " is not a usable IVF stream: " + e.what());
    return exitcode::BadArgs;
  }
  return std::nullopt;
}

int runPublish(int argc, char** argv)
{
  if (argc == 2 && std::string_view(argv[1]) == "--print-options-table") {
    std::fputs(optionsTable(stream::StreamProducerOptions{}).c_str(), stdout);
    return exitcode::Ok;
  }
  std::string name, synthetic;
  SigningOptions signing;
  std::vector<std::string> inputArgs;
  double fps = 0, durationSeconds = 0, lingerSeconds = 3;
  size_t gop = 30;
  bool jsonOut = false, noRegister = false;
  Verbosity verbosity;
  ConnectionOptions connection;
  stream::StreamProducerOptions po;
  CLI::App app{"Publish a real-time stream under PREFIX/<stream> (Fig. 9 names, metadata, FEC):\n"
               "IVF inputs, one per bitrate (a file as if live at its frame rate, stdin as it comes),\n"
               "or synthetic frames. The end of the input ends the stream with a marker players see.\n"
               "Exit codes: 0 the input ended, 1 forwarder failure, 2 bad arguments or malformed IVF,\n"
               "4 an input cannot be read, 130 interrupted.",
               "ndnlab stream publish"};
  app.add_option("PREFIX", name, "Prefix to publish under")->required();
  auto* in = app.add_option("-i,--input", inputArgs, "BITRATE=FILE: an IVF input (VP8/VP9), - for stdin; repeatable")
               ->expected(1)
               ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
               ->check(check::nonEmpty());
  app.add_option("--synthetic", synthetic, "BITRATE[,BITRATE...]: synthetic frames of realistic key/delta sizes")
    ->excludes(in)
    ->check(check::nonEmpty());
  app.add_option("--fps", fps, "Frames per second (--synthetic; an IVF input's own rate by default)")
    ->check(check::positive(240));
  addUnsignedOption(app, "--gop", gop, "Frames per GOP, a key frame first (--synthetic)", 1, 100000)
    ->capture_default_str();
  app.add_option("--duration", durationSeconds, "Seconds of synthetic stream before its end; 0: until interrupted")
    ->check(check::nonNegative(1e9))
    ->capture_default_str();
  app.add_option("--linger", lingerSeconds, "Seconds still answering after the end (the last frames, the end marker)")
    ->check(check::nonNegative(3600))
    ->capture_default_str();
  addFieldOptions(app, po); // core/stream/producer-fields.hpp
  addSigningOptions(app, signing);
  app.add_flag("--no-register", noRegister, "Do not register the prefix (a route exists already)");
  app.add_flag("--json", jsonOut, "Print the producer's counters as JSON on stdout at the end");
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;
  auto prefix = parseNameArgument(name);
  if (!prefix)
    return exitcode::BadArgs;
  if (inputArgs.empty() == synthetic.empty()) {
    printError("give the frames with --input BITRATE=FILE (repeatable) or --synthetic BITRATES");
    return exitcode::BadArgs;
  }

  std::list<Input> inputs;
  std::string why;
  if (!synthetic.empty()) {
    auto threads = streamtool::parseSyntheticList(synthetic, why);
    if (!threads) {
      printError("--synthetic: " + why);
      return exitcode::BadArgs;
    }
    po.threads = *threads;
    po.sampleRate = fps > 0 ? fps : 30;
  }
  else {
    size_t stdins = 0;
    for (const auto& a : inputArgs) {
      auto spec = streamtool::parseInputSpec(a, why);
      if (!spec) {
        printError("--input: " + why);
        return exitcode::BadArgs;
      }
      stdins += spec->path == "-";
      Input& i = inputs.emplace_back();
      i.spec = *spec;
      i.thread = po.threads.size();
      po.threads.push_back({spec->thread, spec->bitrate});
    }
    if (stdins > 1) {
      printError("--input: stdin (-) given more than once");
      return exitcode::BadArgs;
    }
  }
  std::unique_ptr<security::Signer> signer;
  try {
    signer = makeSigner(signing);
    po.validate();
  }
  catch (const std::invalid_argument& e) {
    printError(e.what());
    return exitcode::BadArgs;
  }
  for (auto& i : inputs)
    if (auto rc = openInput(i))
      return *rc;
  if (!inputs.empty()) {
    auto rate = fps > 0 ? std::optional<double>(fps) : streamtool::ivfFrameRate(*inputs.front().reader.header());
    po.sampleRate = rate.value_or(30);
  }

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn)
    return rt.failureExitCode();
  int rc = exitcode::Ok;
  conn->failOnClose(rt, rc);
  stream::StreamProducer producer(rt.env, *conn, *prefix, *signer, po);

  bool ending = false;
  std::optional<stream::SyntheticFeed> synth;
  auto finishStream = [&] {
    if (ending)
      return;
    ending = true;
    if (synth)
      synth->stop();
    for (auto& i : inputs) {
      rt.env.timers().cancel(i.timer);
      if (i.sd)
        i.sd->cancel();
    }
    producer.end();
    if (!verbosity.quiet)
      std::cerr << "End of stream after " << producer.counters().frames << " frames; answering for "
                << formatFixed(lingerSeconds, 1) << " s more" << std::endl;
    rt.env.timers().schedule(seconds(lingerSeconds), [&] { rt.stop(); });
  };
  auto inputDone = [&](Input& i) {
    i.done = true;
    if (std::all_of(inputs.begin(), inputs.end(), [](const Input& x) { return x.done; }))
      finishStream();
  };
  auto inputFailed = [&](Input& i, const std::string& message, int code) {
    printError("input " + i.spec.path + ": " + message);
    if (rc == exitcode::Ok)
      rc = code;
    finishStream();
  };
  auto publishIvf = [&](Input& i, const stream::IvfFrame& f) {
    producer.publish(i.thread, stream::Frame{.key = f.key.value_or(false), .data = f.data});
  };

  // a file, paced: each frame at start + its timestamp (time base scale / rate seconds)
  std::function<void(Input&)> schedulePaced = [&](Input& i) {
    if (ending)
      return;
    std::optional<stream::IvfFrame> f;
    try {
      while (!(f = i.reader.next())) {
        ssize_t n = readChunk(i);
        if (n < 0)
          return inputFailed(i, std::strerror(errno), exitcode::FileError);
        if (n == 0) {
          i.reader.finish();
          return inputDone(i);
        }
      }
    }
    catch (const stream::IvfError& e) {
      return inputFailed(i, e.what(), exitcode::BadArgs);
    }
    const auto& h = *i.reader.header();
    if (i.reader.framesRead() == 1) {
      i.firstTs = f->timestamp;
      i.start = rt.env.now();
    }
    const double at = f->timestamp >= i.firstTs ? static_cast<double>(f->timestamp - i.firstTs) * h.scale / h.rate : 0;
    const Duration delay = std::max(Duration::zero(), i.start + seconds(at) - rt.env.now());
    i.pending = std::move(f);
    i.timer = rt.env.timers().schedule(delay, [&, ip = &i] {
      ip->timer = 0;
      publishIvf(*ip, *ip->pending);
      ip->pending.reset();
      schedulePaced(*ip);
    });
  };
  // stdin or a FIFO: each frame as it comes
  std::function<void(Input&)> readStreamed = [&](Input& i) {
    auto drain = [&](Input& x) {
      try {
        while (auto f = x.reader.next())
          publishIvf(x, *f);
      }
      catch (const stream::IvfError& e) {
        inputFailed(x, e.what(), exitcode::BadArgs);
        return false;
      }
      return true;
    };
    if (!i.sd) { // the frames read with the header first
      i.sd = std::make_unique<asio::posix::stream_descriptor>(rt.io, i.fd);
      if (!drain(i))
        return;
    }
    i.sd->async_read_some(asio::buffer(i.buf), [&, ip = &i, drain](const asio::error_code& ec, size_t n) {
      if (ending)
        return;
      if (ec == asio::error::eof || (!ec && n == 0)) {
        try {
          ip->reader.finish();
        }
        catch (const stream::IvfError& e) {
          return inputFailed(*ip, e.what(), exitcode::BadArgs);
        }
        return inputDone(*ip);
      }
      if (ec)
        return inputFailed(*ip, ec.message(), exitcode::FileError);
      try {
        ip->reader.feed(std::span<const uint8_t>(ip->buf.data(), n));
      }
      catch (const stream::IvfError& e) {
        return inputFailed(*ip, e.what(), exitcode::BadArgs);
      }
      if (drain(*ip))
        readStreamed(*ip);
    });
  };

  // synthetic: every thread in lockstep, one frame per 1 / fps, from the start on the clock
  if (!synthetic.empty()) {
    const uint64_t total =
      durationSeconds > 0 ? std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(durationSeconds * po.sampleRate)))
                          : 0;
    synth.emplace(rt.env, producer, gop, total);
    synth->onEnd = finishStream;
  }

  rt.onSignal = [&](int) {
    if (ending) { // a second one: stop lingering
      rt.stop();
      return;
    }
    rc = exitcode::Interrupted;
    finishStream();
  };
  MgmtClient mgmt(rt.env, *conn);
  mgmt.servePrefix(rt, *prefix, noRegister, rc, [&] {
    if (!verbosity.quiet) {
      std::cerr << "Publishing " << producer.base() << " at " << formatFixed(po.sampleRate, 2) << " frames/s:";
      for (const auto& t : po.threads)
        std::cerr << " " << t.name;
      std::cerr << std::endl;
    }
    if (!synthetic.empty()) {
      synth->start();
      return;
    }
    for (auto& i : inputs)
      i.paced ? schedulePaced(i) : readStreamed(i);
  });
  rt.run();
  for (auto& i : inputs) // before the io_context they belong to goes
    if (i.sd) {
      i.sd->release();
      i.sd.reset();
    }

  const auto& c = producer.counters();
  if (jsonOut) {
    json j;
    j["prefix"] = producer.base().toUri();
    j["ended"] = producer.ended();
    j["frames"] = c.frames;
    j["key_frames"] = c.keyFrames;
    j["segments"] = c.segments;
    j["parity_segments"] = c.paritySegments;
    j["interests"] = c.interests;
    j["answered_at_once"] = c.answeredAtOnce;
    j["answered_after_wait"] = c.answeredAfterWait;
    j["expired"] = c.expired;
    j["pit_full"] = c.pitFull;
    j["too_old"] = c.tooOld;
    j["no_such_segment"] = c.noSuchSegment;
    j["malformed"] = c.malformed;
    j["metadata_sent"] = c.metadataSent;
    j["end_markers"] = c.endMarkers;
    j["data_sent"] = c.dataSent;
    std::cout << j.dump(2) << std::endl;
  }
  else if (!verbosity.quiet) {
    std::cerr << "Published " << c.frames << " frames (" << c.keyFrames << " key) in " << c.segments << " + "
              << c.paritySegments << " parity segments; " << c.interests << " Interests: " << c.answeredAtOnce
              << " answered at once, " << c.answeredAfterWait << " after waiting, " << c.expired << " expired, "
              << c.tooOld << " too old; " << c.metadataSent << " metadata replies, " << c.endMarkers << " end markers"
              << std::endl;
  }
  return rc;
}

// --- play -----------------------------------------------------------------------------------

/// The octets `device` (empty: every interface but the loopback) has received in this process's
/// network namespace (/proc/self/net/dev); nullopt when it cannot be read or has no such device.
std::optional<uint64_t> readReceivedOctets(const std::string& device)
{
  std::ifstream in("/proc/self/net/dev");
  if (!in)
    return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return streamtool::receivedOctets(text, device);
}

/// `play --trace-dir`: the consumer's series files (core/stream/trace.hpp), stream-series.csv
/// flushed each second, its link_kbps from readReceivedOctets(`device`).
struct PlayTrace
{
  std::filesystem::path dir;
  std::string device;
  std::ofstream arrivals, series;
  std::optional<stream::SecondSeries> seconds;
  TimePoint start{};

  /// Creates `dir` and both files with their headers; the reason when that fails.
  std::optional<std::string> open()
  {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      return "cannot create --trace-dir " + dir.string() + ": " + ec.message();
    for (auto [file, name] : {std::pair{&arrivals, stream::ArrivalsFile}, std::pair{&series, stream::SeriesFile}}) {
      file->open(dir / name);
      if (!*file)
        return "cannot write " + (dir / name).string() + ": " + std::strerror(errno);
    }
    stream::writeArrivalsHeader(arrivals);
    stream::writeSeriesHeader(series);
    return std::nullopt;
  }
  /// The reason when a file could not be written, after flushing both.
  std::optional<std::string> close()
  {
    for (auto [file, name] : {std::pair{&arrivals, stream::ArrivalsFile}, std::pair{&series, stream::SeriesFile}}) {
      file->flush();
      if (!*file)
        return "writing " + (dir / name).string() + ": " + std::strerror(errno);
    }
    return std::nullopt;
  }
};

json playJson(const std::string& status, const std::string& error, const Name& base, const std::string& output,
              uint64_t written, std::optional<uint64_t> endFrames, const stream::StreamConsumerStats& s)
{
  json j;
  j["status"] = status;
  if (!error.empty())
    j["error"] = error;
  j["stream"] = base.toUri();
  j["output"] = output;
  j["frames_written"] = written;
  j["end_frames"] = endFrames ? json(*endFrames) : json(nullptr);
  stream::visitMetrics(s, [&](const fields::Metric& m, const auto& v) { j[std::string(m.key)] = v; });
  return j;
}

std::string playText(const std::string& status, const Name& base, const std::string& output, uint64_t written,
                     std::optional<uint64_t> endFrames, const stream::StreamConsumerStats& s)
{
  std::string t = "--- " + base.toUri() + " stream statistics ---\n";
  t += status + (s.thread.empty() ? "" : ", thread " + s.thread);
  if (endFrames)
    t += ", the stream had " + std::to_string(*endFrames) + " frames";
  t += "\n" + std::to_string(s.framesRendered) + " frames rendered, " + std::to_string(s.framesLost) + " lost, " +
       std::to_string(s.recoveredByFec) + " by FEC, " + std::to_string(s.recoveredByRtx) + " by retransmission; " +
       std::to_string(s.stalls) + " stalls (" + formatFixed(toMillis(s.stallTime), 0) + " ms)\n";
  t += "first frame " + (s.timeToFirstFrame ? formatFixed(toMillis(*s.timeToFirstFrame), 0) + " ms" : "-") +
       ", latency median " + formatFixed(s.latencyMedianMs, 0) + " ms, p95 " + formatFixed(s.latencyP95Ms, 0) +
       " ms, " + formatFixed(s.throughput().mbps(), 3) + " Mbit/s over " + formatFixed(toSeconds(s.elapsed), 1) +
       " s\n";
  t += std::to_string(s.interestsSent) + " Interests (" + std::to_string(s.retransmissions) + " retransmitted, " +
       std::to_string(s.timeouts) + " timeouts, " + std::to_string(s.nacks) + " Nacks), " +
       std::to_string(s.bitrateSwitches) + " bitrate switches\n";
  if (!output.empty())
    t += std::to_string(written) + " frames written to " + (output == "-" ? std::string("stdout") : output) + "\n";
  return t;
}

int runPlay(int argc, char** argv)
{
  if (argc == 2 && std::string_view(argv[1]) == "--print-options-table") {
    std::fputs(optionsTable(stream::StreamConsumerOptions{}).c_str(), stdout);
    return exitcode::Ok;
  }
  std::string name, output, traceDir, traceLink;
  double waitSeconds = 10, stallSeconds = 10;
  bool jsonOut = false;
  Verbosity verbosity;
  ConnectionOptions connection;
  stream::StreamConsumerOptions co;
  CLI::App app{"Play the real-time stream PREFIX/<stream>: wait for its publisher (WaitInitial),\n"
               "bootstrap, fetch and play out frames; write the rendered ones as IVF (-o), show a live\n"
               "status line on a terminal, and print a summary (--json). Exit codes: 0 the stream\n"
               "ended, 1 no metadata, a stall or forwarder failure, 2 bad arguments, 4 output error,\n"
               "130 interrupted (the IVF holds what was rendered).",
               "ndnlab stream play"};
  app.add_option("PREFIX", name, "Prefix the stream is published under")->required();
  app.add_option("-o,--output", output, "Write the rendered frames as IVF to FILE (- for stdout)")
    ->check(check::nonEmpty());
  auto* wait = app.add_option("--wait", waitSeconds, "Seconds to wait for the stream's metadata (a publisher)")
                 ->check(check::positive(1e6))
                 ->capture_default_str();
  app.add_option("--stall-timeout", stallSeconds, "Give up after this many seconds without a rendered frame")
    ->check(check::positive(1e6))
    ->capture_default_str();
  app.add_flag("--json", jsonOut, "Print the summary as JSON");
  auto* traceOpt = app
                     .add_option("--trace-dir", traceDir,
                                 "Write stream-arrivals.csv (each frame arrival) and stream-series.csv (each second) "
                                 "to DIR, created if missing")
                     ->check(check::nonEmpty());
  app
    .add_option("--trace-link", traceLink,
                "Interface whose received octets are stream-series.csv's link_kbps (default: every one but lo)")
    ->needs(traceOpt)
    ->check(check::nonEmpty());
  addFieldOptions(app, co); // core/stream/consumer-fields.hpp
  addVerbosityOptions(app, verbosity);
  addConnectionOptions(app, connection);
  if (auto rc = parseCommandLine(app, argc, argv))
    return *rc;
  auto prefix = parseNameArgument(name);
  if (!prefix)
    return exitcode::BadArgs;
  if (wait->count() > 0 || app.count("--metadata-retries") == 0) {
    const double lifetimes = std::ceil(waitSeconds / toSeconds(co.metadataLifetime));
    co.metadataRetries = static_cast<size_t>(std::max(1.0, lifetimes) - 1);
  }
  try {
    co.validate();
  }
  catch (const std::invalid_argument& e) {
    printError(e.what());
    return exitcode::BadArgs;
  }
  std::optional<PlayTrace> trace;
  if (!traceDir.empty()) {
    if (!readReceivedOctets(traceLink)) {
      printError("--trace-link: no interface " + traceLink + " in /proc/self/net/dev");
      return exitcode::BadArgs;
    }
    trace.emplace();
    trace->dir = traceDir;
    trace->device = traceLink;
    if (auto why = trace->open()) {
      printError(*why);
      return exitcode::FileError;
    }
  }
  std::FILE* file = nullptr;
  if (output == "-") {
    if (::isatty(1)) {
      printError("refusing to write video to a terminal: redirect stdout or give -o FILE");
      return exitcode::BadArgs;
    }
    file = stdout;
  }
  else if (!output.empty()) {
    file = std::fopen(output.c_str(), "wb");
    if (!file) {
      printError("cannot open output " + output + ": " + std::strerror(errno));
      return exitcode::FileError;
    }
  }
  std::ostream& report = output == "-" ? std::cerr : std::cout;

  ToolRuntime rt(verbosity.logLevel());
  auto conn = ForwarderConnection::open(rt, connection);
  if (!conn) {
    if (file && file != stdout)
      std::fclose(file);
    return rt.failureExitCode();
  }
  using State = stream::StreamConsumer::State;
  stream::StreamConsumer consumer(rt.env, *conn, *prefix, co);
  std::optional<streamtool::IvfOutput> ivf;
  int rc = exitcode::Ok;
  std::string status = "stopped", error;
  std::optional<double> lastLatency;
  TimePoint lastProgress = rt.env.now();
  auto finish = [&](std::string s, int code, std::string why = {}) {
    if (status != "stopped")
      return;
    status = std::move(s);
    rc = code;
    error = std::move(why);
    consumer.stop();
    rt.stop();
  };
  consumer.onFrame = [&](const stream::RenderedFrame& f) {
    lastProgress = rt.env.now();
    lastLatency = static_cast<double>((rt.env.clock().unixNow() - f.captureTime).count());
    if (!file)
      return;
    if (!ivf)
      ivf.emplace(file, consumer.metadata().sampleRate);
    if (!ivf->write(f.playback, f.data))
      finish("failed", exitcode::FileError, "writing " + output + ": " + std::strerror(errno));
  };
  consumer.onStateChange = [&](State from, State to) {
    if (from == State::WaitInitial)
      lastProgress = rt.env.now();
    if (to == State::Ended)
      finish("ended", exitcode::Ok);
  };
  consumer.onError = [&](const std::string& why) { finish("failed", exitcode::Failure, why); };
  // --trace-dir: each arrival, and each second from the start (on the start's grid, no drift)
  std::function<void(int)> traceSecond = [&](int n) {
    const uint64_t link = readReceivedOctets(trace->device).value_or(0);
    stream::writeSecond(trace->series, trace->seconds->next(consumer.stats(), toString(consumer.state()), link));
    trace->series.flush();
    const Duration next = std::max(Duration::zero(), trace->start + std::chrono::seconds(n + 1) - rt.env.now());
    rt.env.timers().schedule(next, [&, n] { traceSecond(n + 1); });
  };
  if (trace)
    consumer.onArrival = [&](const stream::FrameArrival& a) { stream::writeArrival(trace->arrivals, a); };
  conn->onClose = [&](const std::string& reason) { finish("failed", exitcode::Failure, reason); };
  rt.onSignal = [&](int) { finish("interrupted", exitcode::Interrupted); };

  // the live status line (a terminal only) and the stall watchdog, every 500 ms
  const bool tty = ::isatty(2) && !verbosity.quiet;
  size_t lastWidth = 0;
  uint64_t lastBytes = 0;
  const Duration every = std::chrono::milliseconds(500);
  std::function<void()> tick = [&] {
    const auto s = consumer.stats();
    if (tty) {
      streamtool::PlayStatus ps{consumer.state(),
                                s.thread,
                                Rate::of(Bytes(s.bytes.count() - lastBytes), every),
                                consumer.playable(),
                                consumer.targetPlayable(),
                                lastLatency,
                                s.framesRendered,
                                s.framesLost,
                                s.stalls};
      std::string line = streamtool::statusLine(ps);
      const size_t width = line.size();
      line.resize(std::max(width, lastWidth), ' ');
      lastWidth = width;
      std::cerr << "\r" << line << std::flush;
    }
    lastBytes = s.bytes.count();
    if (consumer.state() != State::WaitInitial && rt.env.now() - lastProgress > seconds(stallSeconds))
      return finish("stalled", exitcode::Failure,
                    "no frame rendered for " + formatFixed(stallSeconds, 1) + " s (the publisher stopped?)");
    rt.env.timers().schedule(every, tick);
  };
  consumer.start();
  rt.env.timers().schedule(every, tick);
  if (trace) {
    trace->start = rt.env.now();
    trace->seconds.emplace(readReceivedOctets(trace->device).value_or(0));
    rt.env.timers().schedule(std::chrono::seconds(1), [&] { traceSecond(1); });
  }
  rt.run();
  if (status == "stopped") // the loop ran out of work: the forwarder went
    status = "failed";
  if (tty && lastWidth > 0)
    std::cerr << "\n";

  if (file) {
    if (!ivf)
      ivf.emplace(file, consumer.metadata().sampleRate);
    if (!ivf->finish() && rc == exitcode::Ok) {
      error = "writing " + output + ": " + std::strerror(errno);
      rc = exitcode::FileError;
    }
    if (file != stdout && std::fclose(file) != 0 && rc == exitcode::Ok) {
      error = "writing " + output + ": " + std::strerror(errno);
      rc = exitcode::FileError;
    }
  }
  if (trace)
    if (auto why = trace->close(); why && rc == exitcode::Ok) {
      error = *why;
      rc = exitcode::FileError;
    }
  const auto s = consumer.stats();
  const uint64_t written = ivf ? ivf->frames() : 0;
  if (jsonOut)
    report << playJson(status, error, stream::streamBase(*prefix, co.stream), output, written, consumer.endFrameCount(),
                       s)
                .dump(2)
           << std::endl;
  else if (!verbosity.quiet)
    report << playText(status, stream::streamBase(*prefix, co.stream), output, written, consumer.endFrameCount(), s)
           << std::flush;
  if (!error.empty())
    printError(error);
  return rc;
}

} // namespace

int runStream(int argc, char** argv)
{
  static const Subcommand subs[] = {{"publish", runPublish}, {"play", runPlay}};
  return runSubcommand("stream", "Publish and play real-time video streams (NDN-RTC's design; docs/tools.md).",
                       "usage: ndnlab stream publish PREFIX [options] | ndnlab stream play PREFIX [options]\n"
                       "       ndnlab stream publish --help | ndnlab stream play --help\n",
                       subs, argc, argv);
}

} // namespace ndnlab::tools
