package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/service"
)

// admin holds what every `verdict admin` command shares: the database and
// the output format.
type admin struct {
	dbURL     string
	dbTimeout time.Duration
	json      bool
}

func newAdminCommand() *cobra.Command {
	a := &admin{}
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Manage organizations, users, members and API keys in the database",
		Long: `Manage organizations, users, members and API keys directly in the database,
whether or not a server is running on it. Whoever can reach the database is
the operator: these commands ask no API key. Every change of an
organization's members or keys is an audit event of the organization, as
through the API, with the operator (the nil UUID) as its actor.

The database is --database-url, else $DATABASE_URL, else ` + database.DefaultURL + `.
It must exist and be migrated (` + "`verdict migrate`" + `), except for ` + "`admin bootstrap`" + `,
which creates a SQLite file that does not exist and applies pending
migrations itself, so that a fresh database just works.

Output is text, or JSON with --json. Secrets are printed once and stored
only as hashes. Exit status: 0 on success, 1 when the operation fails (a
conflict, something not found, an invalid value, the database missing,
unreachable or not migrated), 3 on bad usage.`,
		Args: cobra.ArbitraryArgs,
		RunE: needSubcommand,
	}
	pf := cmd.PersistentFlags()
	addDatabaseURLFlag(pf, &a.dbURL)
	pf.DurationVar(&a.dbTimeout, "database-timeout", database.DefaultIOTimeout,
		"PostgreSQL: how long one read or write (and so one statement) may stall before the command fails; 0 for no limit")
	pf.BoolVar(&a.json, "json", false, "print JSON instead of text")

	org := group("org", "Create and list organizations")
	org.AddCommand(a.orgCreateCommand(), a.orgListCommand())
	user := group("user", "Create users")
	user.AddCommand(a.userCreateCommand())
	member := group("member", "List the members of organizations, give, change and take away their roles")
	member.AddCommand(a.memberAddCommand(), a.memberListCommand(), a.memberRoleCommand(), a.memberRemoveCommand())
	key := group("key", "List, create and revoke API keys")
	key.AddCommand(a.keyCreateCommand(), a.keyListCommand(), a.keyRevokeCommand())

	cmd.AddCommand(a.bootstrapCommand(), org, user, member, key, a.seedCommand())
	return cmd
}

// group is a command that only holds subcommands.
func group(use, short string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: cobra.ArbitraryArgs, RunE: needSubcommand}
}

// needSubcommand is the exit status of a group command run by itself or
// with an unknown subcommand. (Cobra would print the help and succeed.)
func needSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		// As cobra suggests for the root's commands: within two edits, or
		// by prefix.
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2
		}
		if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
			return usageError("unknown command %q for %q; did you mean %s?", args[0], cmd.CommandPath(), strings.Join(near, " or "))
		}
		return usageError("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return usageError("%s needs a command: %s (see --help)", cmd.CommandPath(), strings.Join(names, ", "))
}

// operator opens the database and runs fn with the operator's view of the
// service. With migrateFirst set it first applies pending migrations,
// reporting them on w, and creates a SQLite file that does not exist;
// otherwise it refuses a database that is missing or not migrated.
func (a *admin) operator(ctx context.Context, w io.Writer, migrateFirst bool, fn func(op *service.Operator) error) error {
	// An interrupt ends the command between its steps, not in the middle
	// of a migration or of one change (see database.Migrate).
	ctx, stop := untilStopped(ctx)
	defer stop()
	dbURL := resolveDatabaseURL(a.dbURL)
	open := openExistingDatabase
	if migrateFirst {
		open = openDatabase
	}
	timeout, err := a.timeout()
	if err != nil {
		return err
	}
	db, err := open(ctx, dbURL, timeout)
	if err != nil {
		return err
	}
	defer db.Close()
	if migrateFirst {
		m, err := database.Migrate(ctx, db, database.WhileWaiting(func() {
			fmt.Fprintf(os.Stderr, "waiting for another instance to finish migrating %s...\n", displayURL(dbURL))
		}))
		if err != nil {
			return migrationFailure(dbURL, err)
		}
		if !a.json {
			for _, name := range m.Applied {
				fmt.Fprintf(w, "applied migration %s\n", name)
			}
		}
	} else if err := requireMigrated(ctx, db, dbURL); err != nil {
		return err
	}
	svc, err := newOperatorService(db)
	if err != nil {
		return err
	}
	defer svc.Close()
	return fn(svc.Operator())
}

// timeout is the bound --database-timeout sets on each read and write.
func (a *admin) timeout() (database.Option, error) {
	if a.dbTimeout < 0 {
		return nil, usageError("--database-timeout must not be negative")
	}
	return database.WithIOTimeout(a.dbTimeout), nil
}

// newOperatorService builds a service for the Operator alone, which asks no
// authorizer: without one, anything else it were asked would be denied.
func newOperatorService(db *database.DB) (*service.Service, error) {
	svc, err := service.New(service.Config{DB: db})
	if err != nil {
		return nil, failure(err)
	}
	return svc, nil
}

// show writes v as JSON with --json, else calls text.
func (a *admin) show(w io.Writer, v any, text func()) error {
	if a.json {
		if err := writeJSON(w, v, false); err != nil {
			return failure(err)
		}
		return nil
	}
	text()
	return nil
}

func (a *admin) bootstrapCommand() *cobra.Command {
	var in service.BootstrapInput
	cmd := &cobra.Command{
		Use:   "bootstrap --org NAME --email EMAIL [--name NAME] [--key KEY]",
		Short: "Create an organization, its first admin and an admin key",
		Long: `Create an organization, its first admin user (or make an existing user its
admin) and an admin-scoped API key owned by that user, in one transaction,
and print the key: the given --key (at least 32 characters), or a new random
one. The key is printed this once and stored only as a hash.

Pending migrations are applied first, so bootstrap works on a fresh database.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if in.Key != "" {
				// The same rule as serve's --bootstrap-key, checked before
				// the database is created or migrated.
				var se *service.Error
				if err := service.CheckOperatorKey(in.Key); errors.As(err, &se) {
					return usageError("--key: %s", se.Message)
				}
			}
			w := cmd.OutOrStdout()
			return a.operator(cmd.Context(), w, true, func(op *service.Operator) error {
				b, err := op.Bootstrap(cmd.Context(), in)
				if err != nil {
					return failure(err)
				}
				return a.show(w, bootstrapJSON(b), func() { printBootstrapped(w, b) })
			})
		},
	}
	f := cmd.Flags()
	required(cmd, &in.Organization, "org", "the organization's name")
	required(cmd, &in.Email, "email", "the admin's email")
	f.StringVar(&in.Name, "name", "", "the admin's name, when the user is new")
	f.StringVar(&in.Key, "key", "", "the admin's API key, at least 32 characters; default a new random key")
	return cmd
}

// bootstrapped is a bootstrap as --json prints it.
type bootstrapped struct {
	Organization *service.Organization `json:"organization"`
	User         *service.User         `json:"user"`
	Key          service.Key           `json:"key"`
	Secret       string                `json:"secret"`
}

func bootstrapJSON(b *service.Bootstrapped) bootstrapped {
	return bootstrapped{Organization: b.Organization, User: b.User, Key: b.Key, Secret: b.Secret}
}

// printBootstrapped shows what a bootstrap created; `verdict serve` prints
// the same on an empty database.
func printBootstrapped(w io.Writer, b *service.Bootstrapped) {
	fmt.Fprintf(w, "organization  %s (%s)\n", b.Organization.Name, b.Organization.ID)
	fmt.Fprintf(w, "admin         %s (%s)\n", b.User.Email, b.User.ID)
	fmt.Fprintf(w, "API key       %s scope, prefix %s (%s)\n", b.Key.Scope, b.Key.Prefix, b.Key.ID)
	printSecret(w, b.Secret)
}

// printSecret shows a key's secret on a line of its own, the one time it is
// shown.
func printSecret(w io.Writer, secret string) {
	fmt.Fprintf(w, "\nThe API key is shown this once; store it now:\n\n    %s\n\n", secret)
}

func (a *admin) orgCreateCommand() *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "create --name NAME",
		Short: "Create an empty organization",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.operator(cmd.Context(), w, false, func(op *service.Operator) error {
				org, err := op.CreateOrganization(cmd.Context(), name)
				if err != nil {
					return failure(err)
				}
				return a.show(w, org, func() {
					fmt.Fprintf(w, "created organization %s (%s)\n", org.Name, org.ID)
				})
			})
		},
	}
	required(cmd, &name, "name", "the organization's name")
	return cmd
}

func (a *admin) orgListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List every organization, oldest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.operator(cmd.Context(), w, false, func(op *service.Operator) error {
				orgs, err := op.Organizations(cmd.Context())
				if err != nil {
					return failure(err)
				}
				return a.show(w, struct {
					Items []*service.Organization `json:"items"`
				}{orgs}, func() {
					tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "ID\tNAME\tCREATED")
					for _, org := range orgs {
						fmt.Fprintf(tw, "%s\t%s\t%s\n", org.ID, cell(org.Name), org.CreatedAt.UTC().Format(time.RFC3339))
					}
					tw.Flush()
				})
			})
		},
	}
}

func (a *admin) userCreateCommand() *cobra.Command {
	var email, name string
	cmd := &cobra.Command{
		Use:   "create --email EMAIL [--name NAME]",
		Short: "Create a user, member of no organization yet",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.operator(cmd.Context(), w, false, func(op *service.Operator) error {
				u, err := op.CreateUser(cmd.Context(), email, name)
				if err != nil {
					return failure(err)
				}
				return a.show(w, u, func() {
					fmt.Fprintf(w, "created user %s (%s)\n", u.Email, u.ID)
				})
			})
		},
	}
	f := cmd.Flags()
	required(cmd, &email, "email", "the user's email")
	f.StringVar(&name, "name", "", "the user's name")
	return cmd
}

func (a *admin) memberAddCommand() *cobra.Command {
	var orgRef, email, role string
	cmd := &cobra.Command{
		Use:   "add --org ORG --email EMAIL --role ROLE",
		Short: "Give an existing user a role in an organization",
		Long: `Give an existing user a role in an organization: viewer, editor, publisher,
admin or auditor. ORG is the organization's id or name.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.inOrganization(cmd.Context(), w, orgRef, func(op *service.Operator, org *service.Organization) error {
				err := op.AddMember(cmd.Context(), org.ID, email, authz.Role(role))
				if service.CodeOf(err) == service.CodeNotFound {
					return failuref("no user has the email %s: create one with `verdict admin user create --email %s`", email, email)
				} else if err != nil {
					return failure(err)
				}
				return a.show(w, struct {
					Organization *service.Organization `json:"organization"`
					Email        string                `json:"email"`
					Role         string                `json:"role"`
				}{org, displayEmail(email), role}, func() {
					fmt.Fprintf(w, "%s is now %s in %s (%s)\n", displayEmail(email), role, org.Name, org.ID)
				})
			})
		},
	}
	required(cmd, &orgRef, "org", "the organization's id or name")
	required(cmd, &email, "email", "the user's email")
	required(cmd, &role, "role", "viewer, editor, publisher, admin or auditor")
	return cmd
}

func (a *admin) keyCreateCommand() *cobra.Command {
	var orgRef, userEmail, scope, name, expires string
	cmd := &cobra.Command{
		Use:   "create --org ORG [--user-email EMAIL] --scope SCOPE [--name NAME] [--expires TIME]",
		Short: "Create an API key and print its secret, once",
		Long: `Create an API key with scope view, edit, publish or admin and print its
secret, this once: it is stored only as a hash. With --user-email the key
belongs to that user, who must be a member of the organization, and acts
with the lower of its scope and the user's role; without, it is an
organization key. ORG is the organization's id or name; --expires is an
RFC 3339 time.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := service.KeyInput{UserEmail: userEmail, Name: name, Scope: authz.Scope(scope)}
			if expires != "" {
				t, err := time.Parse(time.RFC3339, expires)
				if err != nil {
					return usageError("--expires %q is not an RFC 3339 time such as 2027-01-31T00:00:00Z", expires)
				}
				in.ExpiresAt = &t
			}
			w := cmd.OutOrStdout()
			return a.inOrganization(cmd.Context(), w, orgRef, func(op *service.Operator, org *service.Organization) error {
				in.Organization = org.ID
				k, err := op.CreateKey(cmd.Context(), in)
				if err != nil {
					return failure(err)
				}
				return a.show(w, k, func() {
					owner := "the organization"
					if userEmail != "" {
						owner = displayEmail(userEmail)
					}
					fmt.Fprintf(w, "created key %s in %s (%s), owned by %s\n", k.ID, org.Name, org.ID, owner)
					fmt.Fprintf(w, "scope %s, prefix %s", k.Scope, k.Prefix)
					if k.ExpiresAt != nil {
						fmt.Fprintf(w, ", expires %s", k.ExpiresAt.UTC().Format(time.RFC3339))
					}
					fmt.Fprintln(w)
					printSecret(w, k.Secret)
				})
			})
		},
	}
	f := cmd.Flags()
	required(cmd, &orgRef, "org", "the organization's id or name")
	f.StringVar(&userEmail, "user-email", "", "the member who owns the key; default an organization key")
	required(cmd, &scope, "scope", "view, edit, publish or admin")
	f.StringVar(&name, "name", "", "a name to tell the key apart in lists; default the owner's email, else \"operator\"")
	f.StringVar(&expires, "expires", "", "when the key stops working, RFC 3339; default never")
	return cmd
}

func (a *admin) keyRevokeCommand() *cobra.Command {
	var idFlag string
	cmd := &cobra.Command{
		Use:   "revoke --id KEYID",
		Short: "Revoke an API key; it stays stored for the audit trail",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			id, err := uuid.Parse(idFlag)
			if err != nil {
				return usageError("--id %q is not a key id", idFlag)
			}
			w := cmd.OutOrStdout()
			return a.operator(cmd.Context(), w, false, func(op *service.Operator) error {
				if err := op.RevokeKey(cmd.Context(), id); err != nil {
					return failure(err)
				}
				return a.show(w, struct {
					ID      uuid.UUID `json:"id"`
					Revoked bool      `json:"revoked"`
				}{id, true}, func() {
					fmt.Fprintf(w, "revoked key %s\n", id)
				})
			})
		},
	}
	required(cmd, &idFlag, "id", "the key's id")
	return cmd
}

// displayEmail is an email as the service stores it, for commands whose
// operation does not return it.
func displayEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// findOrganization finds the organization an --org flag names, by id or by
// name.
func findOrganization(ctx context.Context, op *service.Operator, ref string) (*service.Organization, error) {
	org, err := op.Organization(ctx, ref)
	if err != nil {
		return nil, failure(err)
	}
	return org, nil
}

// inOrganization runs fn with the operator and the organization ref names
// (see findOrganization), for the commands that act in one.
func (a *admin) inOrganization(ctx context.Context, w io.Writer, ref string, fn func(op *service.Operator, org *service.Organization) error) error {
	return a.operator(ctx, w, false, func(op *service.Operator) error {
		org, err := findOrganization(ctx, op, ref)
		if err != nil {
			return err
		}
		return fn(op, org)
	})
}

// everyPage gathers the items of every page of a list.
func everyPage[T any](list func(service.ListOptions) (*service.Page[T], error)) ([]T, error) {
	items := []T{}
	o := service.ListOptions{Limit: service.MaxPageSize}
	for {
		page, err := list(o)
		if err != nil {
			return nil, err
		}
		items = append(items, page.Items...)
		if page.NextCursor == "" {
			return items, nil
		}
		o.Cursor = page.NextCursor
	}
}

// listInOrganization completes cmd, which says what it lists, into
// `list --org ORG`: every item of list in the organization, as JSON
// {items} or as a table of header and a row per item.
func listInOrganization[T any](a *admin, cmd *cobra.Command,
	list func(op *service.Operator, ctx context.Context, org uuid.UUID, o service.ListOptions) (*service.Page[T], error),
	header string, row func(tw io.Writer, item T)) *cobra.Command {
	var orgRef string
	cmd.Use = "list --org ORG"
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		w := cmd.OutOrStdout()
		return a.inOrganization(cmd.Context(), w, orgRef, func(op *service.Operator, org *service.Organization) error {
			items, err := everyPage(func(o service.ListOptions) (*service.Page[T], error) {
				return list(op, cmd.Context(), org.ID, o)
			})
			if err != nil {
				return failure(err)
			}
			return a.show(w, struct {
				Items []T `json:"items"`
			}{items}, func() {
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, header)
				for _, item := range items {
					row(tw, item)
				}
				tw.Flush()
			})
		})
	}
	required(cmd, &orgRef, "org", "the organization's id or name")
	return cmd
}

// cell is a name as a table shows it: quoted, its control characters
// escaped, when it holds any. Names are refused with them now, but one
// stored before could break the table's lines or act on the terminal.
func cell(name string) string {
	if strings.IndexFunc(name, unicode.IsControl) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// timeOrDash shows an optional time in a table.
func timeOrDash(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func (a *admin) memberListCommand() *cobra.Command {
	return listInOrganization(a, &cobra.Command{
		Short: "List the members of an organization, newest first",
	}, (*service.Operator).Members, "USER ID\tEMAIL\tNAME\tROLE\tMEMBER SINCE", func(tw io.Writer, m service.Member) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.User.ID, cell(m.User.Email), cell(m.User.Name), m.Role, m.CreatedAt.UTC().Format(time.RFC3339))
	})
}

func (a *admin) memberRoleCommand() *cobra.Command {
	var orgRef, email, role string
	cmd := &cobra.Command{
		Use:   "role --org ORG --email EMAIL --role ROLE",
		Short: "Change a member's role",
		Long: `Change the role of a member of an organization to viewer, editor, publisher,
admin or auditor. The organization's last admin keeps the role. ORG is the
organization's id or name.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.inOrganization(cmd.Context(), w, orgRef, func(op *service.Operator, org *service.Organization) error {
				m, err := op.SetMemberRole(cmd.Context(), org.ID, email, authz.Role(role))
				if err != nil {
					return failure(err)
				}
				return a.show(w, m, func() {
					fmt.Fprintf(w, "%s is now %s in %s (%s)\n", m.User.Email, m.Role, org.Name, org.ID)
				})
			})
		},
	}
	required(cmd, &orgRef, "org", "the organization's id or name")
	required(cmd, &email, "email", "the member's email")
	required(cmd, &role, "role", "viewer, editor, publisher, admin or auditor")
	return cmd
}

func (a *admin) memberRemoveCommand() *cobra.Command {
	var orgRef, email string
	cmd := &cobra.Command{
		Use:   "remove --org ORG --email EMAIL",
		Short: "Take a member out of an organization and revoke their keys there",
		Long: `Take a member out of an organization. The member's API keys made in the
organization are revoked with it; the user stays, with their other
memberships. The organization's last admin cannot be removed. ORG is the
organization's id or name.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			return a.inOrganization(cmd.Context(), w, orgRef, func(op *service.Operator, org *service.Organization) error {
				m, err := op.RemoveMember(cmd.Context(), org.ID, email)
				if err != nil {
					return failure(err)
				}
				return a.show(w, struct {
					Organization *service.Organization `json:"organization"`
					Email        string                `json:"email"`
					Removed      bool                  `json:"removed"`
				}{org, m.User.Email, true}, func() {
					fmt.Fprintf(w, "removed %s from %s (%s) and revoked their keys there\n", m.User.Email, org.Name, org.ID)
				})
			})
		},
	}
	required(cmd, &orgRef, "org", "the organization's id or name")
	required(cmd, &email, "email", "the member's email")
	return cmd
}

func (a *admin) keyListCommand() *cobra.Command {
	return listInOrganization(a, &cobra.Command{
		Short: "List the API keys of an organization, revoked ones too, newest first",
		Long: `List the API keys of an organization, revoked ones too, newest first: their
ids, names, prefixes, scopes and owners. Secrets are never shown again.`,
	}, (*service.Operator).Keys, "ID\tNAME\tPREFIX\tSCOPE\tOWNER\tCREATED\tLAST USED\tEXPIRES\tREVOKED", func(tw io.Writer, k service.Key) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s %s\t%s\t%s\t%s\t%s\n", k.ID, cell(k.Name), k.Prefix, k.Scope, k.Owner.Kind, k.Owner.ID,
			k.CreatedAt.UTC().Format(time.RFC3339), timeOrDash(k.LastUsedAt), timeOrDash(k.ExpiresAt), timeOrDash(k.RevokedAt))
	})
}

// required declares a string flag the command cannot run without.
func required(cmd *cobra.Command, p *string, name, usage string) {
	cmd.Flags().StringVar(p, name, "", usage+" (required)")
	cmd.MarkFlagRequired(name)
}
