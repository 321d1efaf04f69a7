# The five-rule policy of bench_cases.jsonl (five_rule_policy_refs_labels)
# in Rego, for comparing Verdict's runs with an OPA server's decisions on
# the same rules (scripts/compare-stack).
package bench

import rego.v1

default allow := false

applicant := input.Applicant

identity if {
	applicant.passportNumber != ""
	applicant.dateOfBirth < "2007-01-01"
}

affordability if {
	applicant.monthlyIncome >= 3000
	applicant.debtRatio <= 0.4
}

credit if {
	applicant.creditScore > 650
	not applicant.country in {"KP", "IR", "SY"}
	count(applicant.flags) == 0
}

valuation if input.Property.value > applicant.loanAmount

allow if {
	identity
	affordability
	credit
	valuation
}
