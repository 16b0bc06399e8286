#pragma once
// The four rib/register commands captured from real clients (interop-facts.md "Captured
// bytes"). Where the capture elides bytes ("…"), zero octets fill the gap so every TLV length
// stays as captured; those Interests keep their structure but not a valid digest/signature.

#include <string>

namespace ndnlab::mgmt::test {

inline std::string zeros(size_t octets)
{
  return std::string(octets * 2, '0');
}

/// 1. ndnd std, /cap/ndnd: bare v0.3 signed Interest, complete (digest and signature valid).
inline const std::string captureNdnd = "05a0"
                                       "0755"
                                       "08096c6f63616c686f7374"
                                       "08036e6664"
                                       "0803726962"
                                       "08087265676973746572"
                                       "0812"
                                       "6810070b080363617008046e646e646a0100"
                                       "0220a8194f81951e9d1a7909e043c67944da7c82ee6a705e2cf469402e599a88929d"
                                       "1200"
                                       "0a041ebc27c3"
                                       "0c0203e8"
                                       "2400"
                                       "2c17"
                                       "1b0100"
                                       "2608532acbe32ceee84f"
                                       "2808000001a1fcfbf63f"
                                       "2e20db4dabe4ff9e1f67ccda0828792044f9769f1de1ffb40842e322712b1f4e069b";

/// 2. NDNts, /interop/js: LpPacket with a 6-octet PitToken around a v0.3 signed Interest.
inline const std::string captureNdnts = "64b8"
                                        "6206d610ffffffff"
                                        "50ae"
                                        "05ac"
                                        "0763"
                                        "08096c6f63616c686f7374"
                                        "08036e6664"
                                        "0803726962"
                                        "08087265676973746572"
                                        "0820"
                                        "681e070d0807696e7465726f7008026a736f01416a01006c01026d0400124f80"
                                        "0220"
                                        "7fe18ab6" +
                                        zeros(26) +
                                        "d646"
                                        "0a0439c4861b"
                                        "0c020f9f"
                                        "2400"
                                        "2c17"
                                        "1b0100"
                                        "26089e34251746910113"
                                        "2808000001a1fcfdb0a1"
                                        "2e20"
                                        "2754a155" +
                                        zeros(26) + "015b";

/// 3. legacy python-ndn (ndn.app), /interop/pyv1: v0.2 command with four signature components.
inline const std::string captureLegacyPython = "057f"
                                               "0773"
                                               "08096c6f63616c686f7374"
                                               "08036e6664"
                                               "0803726962"
                                               "08087265676973746572"
                                               "0813"
                                               "6811070f0807696e7465726f70080470797631"
                                               "0808000001a1fcfd54b0"
                                               "080825874c521e489f97"
                                               "080516031b0100"
                                               "0822"
                                               "1720"
                                               "e8c25e39" +
                                               zeros(26) +
                                               "28fa"
                                               "0a04b8073c37"
                                               "0c0203e8";

/// 4. python-ndn appv2, /interop/py: bare v0.3 signed Interest, CP = Name only.
inline const std::string capturePythonAppv2 = "059d"
                                              "0754"
                                              "08096c6f63616c686f7374"
                                              "08036e6664"
                                              "0803726962"
                                              "08087265676973746572"
                                              "0811"
                                              "680f070d0807696e7465726f7008027079"
                                              "0220"
                                              "072432" +
                                              zeros(27) +
                                              "8ba9"
                                              "0a046ce54309"
                                              "0c0203e8"
                                              "2400"
                                              "2c17"
                                              "1b0100"
                                              "26083c1b52ceb21153bd"
                                              "2808000001a1fcfd3c71"
                                              "2e20"
                                              "36622978" +
                                              zeros(26) + "3d47";

} // namespace ndnlab::mgmt::test
