package archive

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// A backup is thousands of entries of a few hundred bytes each. For those,
// compress/flate spends most of its time building and writing a dynamic
// Huffman table that is nearly as long as the data it saves; the fixed
// codes of RFC 1951 (3.2.6) need no table, so deflateFixed writes one
// fixed-code block after a plain LZ77 pass. Any deflate reader reads it.

// fixedLimit is the largest body deflateFixed compresses; a larger one is
// worth compress/flate's dynamic tables.
const fixedLimit = 4 << 10

const (
	fixedHashBits = 12
	fixedMinMatch = 4
	fixedMaxMatch = 258
	fixedWindow   = 32 << 10
	endOfBlock    = 256
)

// fixedCode is a Huffman code as written: bit-reversed, with its length.
type fixedCode struct {
	bits uint32
	len  uint8
}

// lengthBase and distanceBase start the ranges of match lengths and
// distances each symbol stands for (RFC 1951 3.2.5); the extra bits after
// the symbol select within the range.
var (
	lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
		35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra   = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distanceBase  = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distanceExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// fixedSymbols are the fixed literal/length codes and the symbol of every
// match length and distance.
type fixedSymbols struct {
	litLen    [288]fixedCode
	lengthSym [fixedMaxMatch + 1]uint8 // length -> index into lengthBase
	nearDist  [256]uint8               // distance-1 -> symbol, distances up to 256
	farDist   [256]uint8               // (distance-1)>>7 -> symbol, the longer ones
}

var fixedTables = sync.OnceValue(func() *fixedSymbols {
	t := &fixedSymbols{}
	for sym := range t.litLen {
		var code uint32
		var n uint8
		switch {
		case sym < 144:
			code, n = 0x30+uint32(sym), 8
		case sym < 256:
			code, n = 0x190+uint32(sym-144), 9
		case sym < 280:
			code, n = uint32(sym-256), 7
		default:
			code, n = 0xc0+uint32(sym-280), 8
		}
		t.litLen[sym] = fixedCode{bits.Reverse32(code) >> (32 - n), n}
	}
	for sym, base := range lengthBase {
		last := fixedMaxMatch
		if sym+1 < len(lengthBase) {
			last = int(lengthBase[sym+1]) - 1
		}
		for l := int(base); l <= last; l++ {
			t.lengthSym[l] = uint8(sym)
		}
	}
	for sym, base := range distanceBase {
		last := fixedWindow
		if sym+1 < len(distanceBase) {
			last = int(distanceBase[sym+1]) - 1
		}
		for d := int(base); d <= last; d++ {
			if d <= 256 {
				t.nearDist[d-1] = uint8(sym)
			} else {
				t.farDist[(d-1)>>7] = uint8(sym)
			}
		}
	}
	return t
})

// fixedEncoder holds the state of one compression; encoders are pooled, as
// the hash table would cost more to allocate than a small entry to compress.
type fixedEncoder struct {
	table [1 << fixedHashBits]int32 // position+1 of the last 4 bytes hashing here
	out   []byte
	acc   uint64 // bits not yet in out, the first at bit 0
	nacc  uint
}

var fixedEncoders = sync.Pool{New: func() any { return new(fixedEncoder) }}

// deflateFixed compresses src as a single deflate block with fixed codes
// and returns a new slice of the exact length.
func deflateFixed(src []byte) []byte {
	e := fixedEncoders.Get().(*fixedEncoder)
	defer fixedEncoders.Put(e)
	clear(e.table[:])
	e.out, e.acc, e.nacc = e.out[:0], 0, 0
	t := fixedTables()
	e.put(0b011, 3) // BFINAL, then BTYPE 01: fixed codes
	literalsFrom := 0
	for i := 0; i+fixedMinMatch <= len(src); {
		word := binary.LittleEndian.Uint32(src[i:])
		h := (word * 0x1e35a7bd) >> (32 - fixedHashBits)
		candidate := int(e.table[h]) - 1
		e.table[h] = int32(i + 1)
		if candidate < 0 || i-candidate > fixedWindow || binary.LittleEndian.Uint32(src[candidate:]) != word {
			i++
			continue
		}
		length := fixedMinMatch
		for i+length < len(src) && length < fixedMaxMatch && src[candidate+length] == src[i+length] {
			length++
		}
		for _, c := range src[literalsFrom:i] {
			e.putCode(t.litLen[c])
		}
		e.putMatch(t, length, i-candidate)
		i += length
		literalsFrom = i
	}
	for _, c := range src[literalsFrom:] {
		e.putCode(t.litLen[c])
	}
	e.putCode(t.litLen[endOfBlock])
	for e.nacc > 0 { // the last byte, padded with zeros
		e.out = append(e.out, byte(e.acc))
		e.acc >>= 8
		e.nacc = e.nacc - min(e.nacc, 8)
	}
	return append([]byte(nil), e.out...)
}

// putMatch writes a back reference: length's symbol and extra bits, then
// distance's (distance codes are 5 bits, all of the same length).
func (e *fixedEncoder) putMatch(t *fixedSymbols, length, distance int) {
	ls := t.lengthSym[length]
	e.putCode(t.litLen[257+int(ls)])
	if n := lengthExtra[ls]; n > 0 {
		e.put(uint32(length-int(lengthBase[ls])), uint(n))
	}
	var ds uint8
	if distance <= 256 {
		ds = t.nearDist[distance-1]
	} else {
		ds = t.farDist[(distance-1)>>7]
	}
	e.put(bits.Reverse32(uint32(ds))>>27, 5)
	if n := distanceExtra[ds]; n > 0 {
		e.put(uint32(distance-int(distanceBase[ds])), uint(n))
	}
}

func (e *fixedEncoder) putCode(c fixedCode) { e.put(c.bits, uint(c.len)) }

// put adds the n low bits of v, first bit first.
func (e *fixedEncoder) put(v uint32, n uint) {
	e.acc |= uint64(v) << e.nacc
	e.nacc += n
	if e.nacc >= 32 {
		e.out = binary.LittleEndian.AppendUint32(e.out, uint32(e.acc))
		e.acc >>= 32
		e.nacc -= 32
	}
}
