package graph

import "github.com/verdict/verdict/service"

// Resolver is the root of the resolvers. Each resolver calls the service
// and nothing else: authorization, validation and errors are the service's.
type Resolver struct {
	svc *service.Service
}
