package service

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/base"
)

// A cursor names the list it resumes, so that one list's cursor is never
// read as a position in another: its first byte is the kind of list, then,
// for a list of one group's or one base's, that id, then the position in
// the list the next page starts after.
type listKind byte

const (
	policyList          listKind = iota + 1 // the policies the caller may see
	flowList                                // the flows the caller may see
	groupPolicyList                         // the policies in a group
	groupFlowList                           // the flows in a group
	policyCandidateList                     // the policies not in a group
	flowCandidateList                       // the flows not in a group
	groupList                               // the tenant's groups
	memberList                              // the tenant's members
	keyList                                 // the tenant's keys
	auditList                               // the tenant's audit log
	decisionList                            // the tenant's decision records
	policyHistoryList                       // a policy base's versions
	flowHistoryList                         // a flow base's versions
)

// The cursor may be one of an older release, whose form changed since:
// the way on is the first page again.
var errForeignCursor = Invalid("cursor is not one this list gave out; ask for the first page again, without a cursor")

// list is one list as its cursors name it: a kind of list and, for the
// lists of one group or one base, its id.
type list struct {
	kind listKind
	of   uuid.UUID
}

// baseList is the list of a kind of base that o asks for: all of them, a
// group's, or those not in a group.
func baseList(kind base.Kind, o ListOptions) list {
	flow := kind == base.KindFlow
	pick := func(policies, flows listKind) listKind {
		if flow {
			return flows
		}
		return policies
	}
	switch {
	case o.GroupID != nil:
		return list{kind: pick(groupPolicyList, groupFlowList), of: *o.GroupID}
	case o.NotInGroupID != nil:
		return list{kind: pick(policyCandidateList, flowCandidateList), of: *o.NotInGroupID}
	}
	return list{kind: pick(policyList, flowList)}
}

// historyList is the list of base's versions.
func historyList(kind base.Kind, baseID uuid.UUID) list {
	if kind == base.KindFlow {
		return list{kind: flowHistoryList, of: baseID}
	}
	return list{kind: policyHistoryList, of: baseID}
}

func (l list) prefix() []byte {
	b := []byte{byte(l.kind)}
	if l.of != uuid.Nil {
		b = append(b, l.of[:]...)
	}
	return b
}

// cursor is l's cursor resuming after position.
func (l list) cursor(position []byte) string {
	return base64.RawURLEncoding.EncodeToString(append(l.prefix(), position...))
}

// position reads a cursor of l holding a position of n bytes; any other
// cursor is refused.
func (l list) position(c string, n int) ([]byte, error) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	p := l.prefix()
	if err != nil || len(b) != len(p)+n || !bytes.Equal(b[:len(p)], p) {
		return nil, errForeignCursor
	}
	return b[len(p):], nil
}

// idCursor is the cursor of a list ordered by id resuming after id.
func (l list) idCursor(id uuid.UUID) string { return l.cursor(id[:]) }

func (l list) decodeID(c string) (uuid.UUID, error) {
	b, err := l.position(c, 16)
	if err != nil {
		return uuid.Nil, err
	}
	return uuid.UUID(b), nil
}

// timeCursor is the cursor of a list ordered by time, then id, resuming
// after the item at that time with that id.
func (l list) timeCursor(at time.Time, id uuid.UUID) string {
	b := binary.BigEndian.AppendUint64(nil, uint64(at.UnixMicro()))
	return l.cursor(append(b, id[:]...))
}

func (l list) decodeTime(c string) (time.Time, uuid.UUID, error) {
	b, err := l.position(c, 8+16)
	if err != nil {
		return time.Time{}, uuid.Nil, err
	}
	at := time.UnixMicro(int64(binary.BigEndian.Uint64(b[:8]))).UTC()
	// Every cursor made holds a time of the years RFC 3339 writes; one
	// outside them was made up, and PostgreSQL refuses to compare it.
	if at.Year() < 1 || at.Year() > 9999 {
		return time.Time{}, uuid.Nil, errForeignCursor
	}
	return at, uuid.UUID(b[8:]), nil
}

// versionCursor is the cursor of a history resuming after version v: the
// versions older than it.
func (l list) versionCursor(v int) string {
	return l.cursor(binary.BigEndian.AppendUint32(nil, uint32(v)))
}

// decodeVersion is the version a history's cursor resumes before; 0 for
// none. Version 1 has none before it, so no cursor resumes there.
func (l list) decodeVersion(c string) (int, error) {
	if c == "" {
		return 0, nil
	}
	b, err := l.position(c, 4)
	if err != nil {
		return 0, err
	}
	v := binary.BigEndian.Uint32(b)
	if v < 2 {
		return 0, errForeignCursor
	}
	return int(v), nil
}

// CursorKind is what position the cursors of a kind of list hold.
type CursorKind int

const (
	// CursorOfIDs resumes a list ordered by id: policies, flows, groups,
	// members, keys.
	CursorOfIDs CursorKind = iota
	// CursorOfTimes resumes a list ordered by time: the audit log, the
	// decision records.
	CursorOfTimes
	// CursorOfVersions resumes a history.
	CursorOfVersions
)

// CheckCursor refuses a cursor no list of the kind gave out, for a caller
// that checks its arguments before it asks; the list it is given to still
// refuses another list's. "" is no cursor.
func CheckCursor(kind CursorKind, c string) error {
	if c == "" {
		return nil
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil || len(b) == 0 {
		return errForeignCursor
	}
	l := listKind(b[0])
	var of, position int
	switch {
	case kind == CursorOfIDs && l >= policyList && l <= keyList:
		position = 16
		if l >= groupPolicyList && l <= flowCandidateList {
			of = 16
		}
	case kind == CursorOfTimes && (l == auditList || l == decisionList):
		position = 8 + 16
	case kind == CursorOfVersions && (l == policyHistoryList || l == flowHistoryList):
		of, position = 16, 4
	default:
		return errForeignCursor
	}
	if len(b) != 1+of+position {
		return errForeignCursor
	}
	return nil
}
