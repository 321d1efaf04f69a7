package model

import "github.com/verdict/verdict/ent/auditevent"

// Actor kinds, as the service writes them in service.Actor.
const (
	ActorUser     = string(auditevent.ActorKindUser)
	ActorKey      = string(auditevent.ActorKindKey)
	ActorOperator = string(auditevent.ActorKindOperator)
)
