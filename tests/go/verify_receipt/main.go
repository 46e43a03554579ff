// Command verify_receipt checks a countersign receipt (SPEC 13) with Go's
// golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog, an
// implementation that shares no code with countersign: it checks the
// formats, not the C code.  Usage: verify_receipt PUBKEY RECEIPT [NOTE]
// (NOTE: a checkpoint alone, as audit checkpoint prints it).  Exit 0 when
// everything verifies, 1 otherwise, saying why.
package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "verify_receipt: "+format+"\n", args...)
	os.Exit(1)
}

// openCheckpoint verifies the note with the key and parses its three lines.
func openCheckpoint(msg []byte, verifiers note.Verifiers) (string, int64, tlog.Hash) {
	n, err := note.Open(msg, verifiers)
	if err != nil {
		fail("note.Open: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		fail("the checkpoint is not three lines: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || strconv.FormatInt(size, 10) != lines[1] {
		fail("bad tree size %q", lines[1])
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		fail("bad root hash %q", lines[2])
	}
	var root tlog.Hash
	copy(root[:], raw)
	if n.Sigs[0].Name != lines[0] {
		fail("signed by %s, the origin is %s", n.Sigs[0].Name, lines[0])
	}
	return lines[0], size, root
}

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fail("usage: verify_receipt PUBKEY RECEIPT [NOTE]")
	}
	vkey, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("%v", err)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		fail("note.NewVerifier: %v", err)
	}
	verifiers := note.VerifierList(verifier)
	receipt, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail("%v", err)
	}
	// c2sp.org/tlog-proof@v1: header, extra, index, proof, blank, note.
	split := bytes.Index(receipt, []byte("\n\n"))
	if split < 0 {
		fail("no blank line before the checkpoint")
	}
	head := strings.Split(string(receipt[:split]), "\n")
	if len(head) < 3 || head[0] != "c2sp.org/tlog-proof@v1" ||
		!strings.HasPrefix(head[1], "extra ") || !strings.HasPrefix(head[2], "index ") {
		fail("not a tlog-proof with extra and index lines")
	}
	extra, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(head[1], "extra "))
	if err != nil {
		fail("extra: %v", err)
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(head[2], "index "), 10, 64)
	if err != nil {
		fail("index: %v", err)
	}
	var proof tlog.RecordProof
	for _, line := range head[3:] {
		raw, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(raw) != tlog.HashSize {
			fail("proof line %q", line)
		}
		var h tlog.Hash
		copy(h[:], raw)
		proof = append(proof, h)
	}
	origin, size, root := openCheckpoint(receipt[split+2:], verifiers)
	if err := tlog.CheckRecord(proof, size, root, index, tlog.RecordHash(extra)); err != nil {
		fail("tlog.CheckRecord: %v", err)
	}
	fmt.Printf("receipt verified: %s, record %d of %d\n", origin, index, size)
	if len(os.Args) == 4 {
		msg, err := os.ReadFile(os.Args[3])
		if err != nil {
			fail("%v", err)
		}
		origin, size, _ := openCheckpoint(msg, verifiers)
		fmt.Printf("checkpoint verified: %s, tree size %d\n", origin, size)
	}
}
