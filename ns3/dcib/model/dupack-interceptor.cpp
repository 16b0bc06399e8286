#include "ns3/dcib/model/dupack-interceptor.hpp"

#include <stdexcept>

namespace ndnlab::dcib {

void InterceptorOptions::validate() const
{
  if (holdTimeout <= Duration::zero())
    throw std::invalid_argument("DCIB duplicate-ACK hold timeout must be positive");
  if (maxHeldPerHole == 0)
    throw std::invalid_argument("DCIB duplicate-ACK hold list must hold at least one ACK");
}

} // namespace ndnlab::dcib
