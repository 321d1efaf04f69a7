package changefeed

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
)

// Subscriber is told of every change committed on the database, by this
// instance or another, and of every moment when some may have been missed.
// Both are called from the listener's goroutines, concurrently with
// everything else, and must return quickly.
type Subscriber interface {
	Changed(Change)
	// Missed means notifications may have been lost: whatever depends on
	// the database may be stale.
	Missed()
}

// Reconnection waits of the listening connection: the first retry comes
// soon, since a killed connection or a restarted server is usually back at
// once; a server that stays away is tried less and less often.
const (
	minReconnect = 50 * time.Millisecond
	maxReconnect = 5 * time.Second
)

// ApplicationName is how an instance's listening connection appears in
// pg_stat_activity: "verdict-changefeed-" and the process id.
func ApplicationName(pid int) string {
	return fmt.Sprintf("verdict-changefeed-%d", pid)
}

// Listener receives the feed of one database and hands it to its
// subscribers. On SQLite it receives nothing.
type Listener struct {
	pq  *pq.Listener // nil on SQLite
	log *slog.Logger

	mu          sync.Mutex
	subscribers []Subscriber

	dispatched    chan struct{} // closed when the dispatching goroutine ends
	notifications prometheus.Counter
	reconnects    prometheus.Counter
}

// Listen starts listening to db's feed, and returns once the listening
// connection is up (or ctx ends). Close stops it.
func Listen(ctx context.Context, db *database.DB, log *slog.Logger, reg prometheus.Registerer) (*Listener, error) {
	l := &Listener{
		log: log,
		notifications: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_change_notifications_total",
			Help: "Change notifications received from PostgreSQL, this instance's own included.",
		}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_change_listener_reconnects_total",
			Help: "Times the connection listening for change notifications was lost and made again.",
		}),
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{l.notifications, l.reconnects} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	if db.Dialect() != dialect.Postgres {
		return l, nil
	}
	var err error
	l.pq, err = db.NewListener(ApplicationName(os.Getpid()), minReconnect, maxReconnect, l.event)
	if err != nil {
		return nil, err
	}
	listened := make(chan error, 1)
	go func() { listened <- l.pq.Listen(Channel) }()
	select {
	case err = <-listened:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		l.pq.Close()
		return nil, fmt.Errorf("changefeed: listening on %s: %w", Channel, err)
	}
	l.dispatched = make(chan struct{})
	go l.dispatch()
	return l, nil
}

// Subscribe adds s to the subscribers.
func (l *Listener) Subscribe(s Subscriber) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subscribers = append(l.subscribers, s)
}

// Close stops listening and waits until no subscriber is called any more.
func (l *Listener) Close() {
	if l.pq == nil {
		return
	}
	l.pq.Close()
	<-l.dispatched
}

func (l *Listener) each(fn func(Subscriber)) {
	l.mu.Lock()
	subs := l.subscribers
	l.mu.Unlock()
	for _, s := range subs {
		fn(s)
	}
}

// dispatch hands notifications to the subscribers until the listener is
// closed. pq.Listener sends nil after it reconnected, since what was
// announced while it was away is lost.
func (l *Listener) dispatch() {
	defer close(l.dispatched)
	for n := range l.pq.NotificationChannel() {
		if n == nil {
			l.each(Subscriber.Missed)
			continue
		}
		l.notifications.Inc()
		c, err := parse(n.Extra)
		if err != nil {
			// Not something an instance sent: what it meant to say is
			// unknown, so everything may be stale.
			l.log.Warn("unreadable change notification; dropping every cached entry", "payload", n.Extra, "error", err)
			l.each(Subscriber.Missed)
			continue
		}
		l.each(func(s Subscriber) { s.Changed(c) })
	}
}

// event follows the listening connection. Once it is lost, changes go
// unannounced until it is back: subscribers drop everything at once, and
// again after the reconnection (dispatch), for what they read meanwhile.
func (l *Listener) event(ev pq.ListenerEventType, err error) {
	switch ev {
	case pq.ListenerEventDisconnected:
		l.log.Warn("change notifications lost; dropping every cached entry and reconnecting", "error", err)
		l.each(Subscriber.Missed)
	case pq.ListenerEventReconnected:
		l.reconnects.Inc()
		l.log.Info("change notifications listening again")
	case pq.ListenerEventConnectionAttemptFailed:
		l.log.Warn("change notifications: reconnecting failed; retrying", "error", err)
	}
}
