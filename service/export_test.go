package service

import "time"

// KeyUsesWritten returns once the uses of keys noted so far are written, so
// that a test reading a key twice reads the same last use.
func (s *Service) KeyUsesWritten() {
	for {
		s.keyUse.mu.Lock()
		idle := !s.keyUse.writing && len(s.keyUse.pending) == 0
		s.keyUse.mu.Unlock()
		if idle {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
