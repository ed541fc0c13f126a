package tools

// UsageHint is the one generic system hint added to every request that
// carries tools (SPEC §4); requests without tools get none. Guidance for a
// particular tool belongs in that tool's description, not here.
const UsageHint = "When one of the tools available to you can directly do what the user asks, " +
	"call that tool instead of describing or guessing its result."
