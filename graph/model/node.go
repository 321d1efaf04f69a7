package model

// Node is an object of the Node interface: a *service.Policy,
// *service.Flow, *PolicySummary, *FlowSummary, *service.Group,
// *service.GroupMember, *service.AuditEvent, *service.User,
// *service.Member, *service.Organization or *service.Key. Most are the
// service's types, so the interface can ask nothing of them; the executor
// tells them apart by their Go type.
type Node interface{}
