// ndnlab-sim: runs one registered ns-3 scenario (see `ndnlab-sim --help`).
#include "ns3/runner/run-context.hpp"

int main(int argc, char** argv)
{
  return ndnlab::runner::runnerMain(argc, argv);
}
