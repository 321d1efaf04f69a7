package database_test

import (
	"context"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

func TestTimestamps(t *testing.T) {
	t.Run("a stored time reads back equal and in UTC", func(t *testing.T) {
		dbtest.Each(t, func(t *testing.T, db *database.DB) {
			ctx := context.Background()
			created := db.Client().Organization.Create().SetName("Acme").SaveX(ctx)
			read := db.Client().Organization.GetX(ctx, created.ID)
			if !read.CreatedAt.Equal(created.CreatedAt) {
				t.Fatalf("created_at read back as %v, stored %v", read.CreatedAt, created.CreatedAt)
			}
			if name, offset := read.CreatedAt.Zone(); offset != 0 {
				t.Fatalf("created_at read back in zone %s%+d, want UTC", name, offset)
			}
		})
	})
}
