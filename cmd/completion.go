package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// NewCmdCompletion is `tavo completion SHELL`: tavo's own version of Cobra's
// default command, so that the bash script works without the bash-completion
// package (see WriteCompletion).
func NewCmdCompletion(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print the shell completion script",
		Long: `Print the completion script of a shell to standard output. It completes
commands, flags and flag values: protocols, profiles, search APIs, output
formats, session IDs (with titles), run IDs, tool names, file names and memory
items, asking tavo itself (the hidden __complete command) for the values.

The bash script works with or without the bash-completion package.`,
		Example: `  # bash: load in every new shell
  echo 'source <(tavo completion bash)' >> ~/.bashrc

  # zsh (compinit must be loaded)
  echo 'source <(tavo completion zsh)' >> ~/.zshrc

  # fish
  tavo completion fish > ~/.config/fish/completions/tavo.fish`,
		Args:                  cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs:             []string{"bash", "zsh", "fish", "powershell"},
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, args []string) error {
			return WriteCompletion(c.Root(), args[0], f.IO.Out)
		},
	}
}

// WriteCompletion writes root's completion script for shell (bash, zsh, fish
// or powershell) to w, with descriptions. The bash script is Cobra's V2
// script with fallbacks for the two bash-completion functions it calls
// (_get_comp_words_by_ref, _filedir), so Tab works on a bash without that
// package instead of printing "command not found".
func WriteCompletion(root *cobra.Command, shell string, w io.Writer) error {
	switch shell {
	case "bash":
		var buf bytes.Buffer
		if err := root.GenBashCompletionV2(&buf, true); err != nil {
			return err
		}
		script, err := bashWithoutBashCompletion(buf.String(), root.Name())
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, script)
		return err
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return usageError(fmt.Errorf("unknown shell %q: use bash, zsh, fish or powershell", shell))
}

// bashInitFallback replaces Cobra's __NAME_init_completion, which calls
// bash-completion's _get_comp_words_by_ref unconditionally. Without the
// package it rebuilds the words from COMP_WORDS itself, joining the pieces
// bash split at "=" and ":" (the -n =: of _init_completion) back into one
// word where no blank separated them, so --output=js and ses_…:x complete.
const bashInitFallback = `__NAME_init_completion()
{
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    local line=$COMP_LINE rest w i j=-1 blank
    words=()
    cword=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        rest=${line#"${line%%[![:blank:]]*}"}
        blank=$(( ${#rest} != ${#line} ))
        line=${rest#"$w"}
        if (( j >= 1 && !blank )) && [[ $w == [=:]* || ${words[j]} == *[=:] ]]; then
            words[j]+=$w
        else
            words[++j]=$w
        fi
        (( i == COMP_CWORD )) && cword=$j
    done
    cur=${words[cword]}
    prev=${words[cword-1]}
}

# __NAME_filedir is bash-completion's _filedir when it is loaded, else a
# small stand-in: directories with -d, else files with one of the
# extensions in "json|yaml|" (all files when none).
__NAME_filedir()
{
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local IFS=$'\n' ext
    if [[ $(type -t compopt) == builtin ]]; then
        compopt -o filenames 2>/dev/null
    fi
    COMPREPLY+=($(compgen -d -- "$cur"))
    [[ ${1-} == -d ]] && return
    if [[ -z ${1-} ]]; then
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    IFS='|'
    for ext in $1; do
        [[ -n $ext ]] && COMPREPLY+=($(IFS=$'\n'; compgen -f -X "!*.$ext" -- "$cur"))
    done
}
`

// bashWithoutBashCompletion rewrites Cobra's V2 bash script for name to
// use bashInitFallback. It fails when Cobra's script no longer has the
// function it replaces, so a Cobra upgrade cannot silently bring the
// "command not found" back.
func bashWithoutBashCompletion(script, name string) (string, error) {
	old := "__" + name + "_init_completion()\n{\n    COMPREPLY=()\n    _get_comp_words_by_ref \"$@\" cur prev words cword\n}\n"
	if !strings.Contains(script, old) {
		return "", fmt.Errorf("bash completion: cobra's __%s_init_completion changed; update bashInitFallback", name)
	}
	// The script calls _filedir after a blank or a quote; the fallback,
	// which calls the real one, goes in after this.
	script = strings.NewReplacer(" _filedir", " __"+name+"_filedir", `"_filedir`, `"__`+name+`_filedir`).Replace(script)
	return strings.Replace(script, old, strings.ReplaceAll(bashInitFallback, "NAME", name), 1), nil
}
