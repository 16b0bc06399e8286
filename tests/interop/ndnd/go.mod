// The ndnd release the interop tests build (tests/interop/ndnd/install): pinned here, with its
// dependencies checksummed in go.sum, as NDNts is in ../ndnts/package-lock.json.
module ndnlab.test/ndnd-interop

go 1.23.0

require (
	github.com/cespare/xxhash v1.1.0 // indirect
	github.com/goccy/go-yaml v1.15.15 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/named-data/ndnd v1.5.0 // indirect
	github.com/spf13/cobra v1.8.1 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	go.etcd.io/bbolt v1.3.11 // indirect
	golang.org/x/crypto v0.32.0 // indirect
	golang.org/x/exp v0.0.0-20250106191152-7588d65b2ba8 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
