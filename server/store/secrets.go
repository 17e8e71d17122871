package store

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// KeyFile is the name of the secrets key inside a data directory (mode 0600).
const KeyFile = "secret.key"

// securePrefix starts a sealed value: SECURE:<key number>:<base64 nonce+ciphertext>.
// Key number 0 is the data directory's one key.
const securePrefix = "SECURE:0:"

// encodedSuffix ends a secret as a read returns it, like the real platform's
// base64 with a trailing CRLF.
const encodedSuffix = "\r\n"

// Secrets seals secret property values with AES-GCM under the data
// directory's key, so they are never stored or returned in plain text.
type Secrets struct {
	aead cipher.AEAD
}

// OpenSecrets loads the key of the data directory dir, creating it (32 random
// bytes, mode 0600) on first use.
func OpenSecrets(dir string) (*Secrets, error) {
	path := filepath.Join(dir, KeyFile)
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createKey(dir, path)
	}
	if err != nil {
		return nil, fmt.Errorf("secrets key %s: %w", path, err)
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("secrets key %s: %d bytes, want 32", path, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secrets key %s: %w", path, err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secrets key %s: %w", path, err)
	}
	return &Secrets{aead: aead}, nil
}

func createKey(dir, path string) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	rand.Read(key)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another process made it first
		return os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, err
	}
	return key, f.Close()
}

// Seal encrypts a plain value into its SECURE:0:<s> form.
func (s *Secrets) Seal(plain string) string {
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce)
	return securePrefix + base64.StdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plain), nil))
}

// Reveal decrypts a SECURE:0:<s> value, for code that must use the secret
// (never for answers).
func (s *Secrets) Reveal(sealed string) (string, error) {
	blob, ok := strings.CutPrefix(sealed, securePrefix)
	if !ok {
		return "", errors.New("secret is not a SECURE:0: value")
	}
	return s.open(blob)
}

func (s *Secrets) open(b64 string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", fmt.Errorf("secret: %w", err)
	}
	n := s.aead.NonceSize()
	if len(raw) < n {
		return "", errors.New("secret: too short")
	}
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", errors.New("secret: not sealed with this data directory's key")
	}
	return string(plain), nil
}

// Accept turns a secret value a client sent into the sealed form to store.
// A SECURE:0:<s> value or an encoded value from an earlier read is kept as
// it is when it opens with this key (a read, edited and sent back, must not
// seal the secret twice). A SECURE value, or an encoded one (base64 and
// CRLF), that does not open is refused: sealing it as if it were plain text
// would store the ciphertext of another server (a backup restored on a
// server with another key) as the password, and the connection would fail
// later with nobody told why. Anything else is plain text and gets sealed.
func (s *Secrets) Accept(value string) (string, error) {
	if stored, sealed, err := s.alreadySealed(value); sealed || err != nil {
		return stored, err
	}
	return s.Seal(value), nil
}

// acceptSealed is Accept for a value sealed or encoded already, whose
// stored form is the same every time; a plain value (Accept seals it anew
// each time) or one Accept refuses gives false.
func (s *Secrets) acceptSealed(value string) (string, bool) {
	stored, sealed, err := s.alreadySealed(value)
	return stored, sealed && err == nil
}

// alreadySealed returns the stored form of a SECURE or encoded value that
// opens with this key (sealed), refuses one that looks so but does not
// open, and tells anything else apart as plain text (neither).
func (s *Secrets) alreadySealed(value string) (stored string, sealed bool, err error) {
	if strings.HasPrefix(value, "SECURE:") {
		if _, err := s.Reveal(value); err != nil {
			return "", false, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		return value, true, nil
	}
	if blob, ok := strings.CutSuffix(value, encodedSuffix); ok && blob != "" {
		if _, err := s.open(blob); err == nil {
			return securePrefix + blob, true, nil
		}
		if _, err := base64.StdEncoding.DecodeString(blob); err == nil {
			return "", false, fmt.Errorf("%w: an encoded secret that this server's key does not open (read from another server?); "+
				"send the plain value, or a SECURE: value made by `dapconsole encrypt --data DIR` with this server's data directory", ErrBadInput)
		}
	}
	return "", false, nil
}

// Encode turns a sealed value into the form a read returns: the ciphertext in
// base64 with a trailing CRLF. Anything else gives "", so that a value stored
// by mistake in plain text is never handed out.
func Encode(sealed string) string {
	if blob, ok := strings.CutPrefix(sealed, securePrefix); ok {
		return blob + encodedSuffix
	}
	return ""
}

// EncodeSecrets replaces sealed secret values by their encoded form, so an
// answer never holds a secret in plain text: properties' and members' are
// encoded, hadoopProperties' stay sealed (mapSecretsElsewhere).
func EncodeSecrets(cfg model.Configuration) model.Configuration {
	props := make(map[string][]string, len(cfg.Properties))
	for key, values := range cfg.Properties {
		if model.IsSecretProperty(key) {
			encoded := make([]string, len(values))
			for i, v := range values {
				encoded[i] = Encode(v)
			}
			values = encoded
		}
		props[key] = values
	}
	cfg.Properties = props
	// Neither function fails, and stored members decode.
	mapSecretsElsewhere(&cfg, sealedOnly, encodeMember)
	return cfg
}
