package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DateTimeLayout is the date-time form of job status and job details.
const DateTimeLayout = "Jan 2, 2006 3:04:05 PM"

// legacyDateTimeLayout is the form older platform versions send in job
// details (`2012-07-06 18:19:09.0`); Go parses the fraction without naming it.
const legacyDateTimeLayout = "2006-01-02 15:04:05"

// isoDateTimeLayout is the form of the file-system interface and of v2
// workbooks (`2019-04-02T15:07:15.120+02:00`): ISO 8601 with milliseconds
// and an offset.
const isoDateTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// ParseDateTime reads a date-time in any of the platform's three forms:
// DateTimeLayout and the older `2012-07-06 18:19:09.0` in local time, ISO
// 8601 at the offset it names.
func ParseDateTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{DateTimeLayout, legacyDateTimeLayout} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("date-time %q is in none of the forms %q, %q, %q", s, DateTimeLayout, legacyDateTimeLayout, isoDateTimeLayout)
}

// DateTime is a date-time field that can be absent, null, or set. Tag it
// `omitzero` so that an absent value stays absent while a null one is written.
type DateTime struct {
	Time    time.Time
	Present bool
}

// At returns a present DateTime; the zero time gives a present null.
func At(t time.Time) DateTime { return DateTime{Time: t, Present: true} }

// Null is a present, null date-time (a queued job's start-time).
var Null = DateTime{Present: true}

// IsZero reports an absent value, so that `omitzero` leaves it out.
func (d DateTime) IsZero() bool { return !d.Present }

// Valid reports whether the value holds a time.
func (d DateTime) Valid() bool { return d.Present && !d.Time.IsZero() }

// MarshalJSON writes the time in DateTimeLayout, or null.
func (d DateTime) MarshalJSON() ([]byte, error) {
	if d.Time.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.Time.Format(DateTimeLayout))
}

// UnmarshalJSON reads null, a time in any of the platform's forms, epoch
// milliseconds (a number), or "" (which user reads send for "never"; read
// as null).
func (d *DateTime) UnmarshalJSON(b []byte) error {
	d.Present = true
	t, err := parseTimeValue(b)
	if err != nil {
		return fmt.Errorf("date-time: %w", err)
	}
	d.Time = t
	return nil
}

// parseTimeValue reads a JSON time value in any of the platform's forms:
// null and "" give the zero time, a number is epoch milliseconds, a string
// goes to ParseDateTime.
func parseTimeValue(b []byte) (time.Time, error) {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return time.Time{}, nil
	}
	if len(b) > 0 && b[0] != '"' {
		ms, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("%s is neither a string nor whole epoch milliseconds", b)
		}
		return EpochMillis(ms).Time(), nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return time.Time{}, err
	}
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	return ParseDateTime(s)
}

// ISODateTime is a date-time the file-system interface and v2 workbooks
// write in ISO 8601 with milliseconds and an offset; it reads every form
// DateTime reads. Tag it `omitzero` as DateTime.
type ISODateTime struct{ DateTime }

// MarshalJSON writes the time in ISO 8601, or null.
func (d ISODateTime) MarshalJSON() ([]byte, error) {
	if d.Time.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.Time.Format(isoDateTimeLayout))
}

// EpochMillis is a time as integer milliseconds since the epoch (list-running).
type EpochMillis int64

// Millis returns t in epoch milliseconds, 0 for the zero time.
func Millis(t time.Time) EpochMillis {
	if t.IsZero() {
		return 0
	}
	return EpochMillis(t.UnixMilli())
}

// Time returns the time, or the zero time for 0.
func (m EpochMillis) Time() time.Time {
	if m == 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(m))
}

// UnmarshalJSON reads a number of milliseconds, or what DateTime reads (a
// date-time string, "" or null, which give 0).
func (m *EpochMillis) UnmarshalJSON(b []byte) error {
	t, err := parseTimeValue(b)
	if err != nil {
		return fmt.Errorf("epoch milliseconds: %w", err)
	}
	*m = Millis(t)
	return nil
}

// Estimate is a duration written as whole seconds with an `s` suffix ("11s").
type Estimate time.Duration

// MarshalJSON writes whole seconds with an `s` suffix.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatInt(int64(time.Duration(e).Round(time.Second)/time.Second), 10) + "s")
}

// UnmarshalJSON reads "11s", any Go duration ("1m5s"), or a bare number of seconds.
func (e *Estimate) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		s = string(b)
	}
	s = strings.TrimSpace(s)
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		*e = Estimate(time.Duration(secs * float64(time.Second)))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("estimate-time %q: %w", s, err)
	}
	*e = Estimate(d)
	return nil
}

// Progress is a job's progress in percent, sent as a string holding a number.
type Progress float64

// MarshalJSON writes the number as a string, as the platform does.
func (p Progress) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatFloat(float64(p), 'f', -1, 64))
}

// UnmarshalJSON reads a string holding a number, or a bare number.
func (p *Progress) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		s = string(b)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("job-progress %q: %w", s, err)
	}
	*p = Progress(v)
	return nil
}
