package completion

// Script is the completion script of shell (Shells). Each asks the
// binary it completes (as typed on the line) for the words at each TAB;
// when it answers none, the shell completes file names.
func Script(shell string) (string, bool) {
	switch shell {
	case "bash":
		return bashScript, true
	case "zsh":
		return zshScript, true
	case "fish":
		return fishScript, true
	}
	return "", false
}

const bashScript = `# bash completion for treasury: source <(treasury completion bash)
_treasury() {
    local IFS=$'\n'
    COMPREPLY=($("${COMP_WORDS[0]}" completion words -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _treasury treasury
`

const zshScript = `#compdef treasury
# zsh completion for treasury: source <(treasury completion zsh), after compinit
_treasury() {
    local IFS=$'\n'
    local -a got
    got=($("${words[1]}" completion words -- "${(@)words[2,CURRENT]}" 2>/dev/null))
    if (( ${#got} )); then
        compadd -Q -- "${got[@]}"
    else
        _files
    fi
}
compdef _treasury treasury
`

const fishScript = `# fish completion for treasury: treasury completion fish | source
function __treasury_complete
    set -l line (commandline -opc) (commandline -ct)
    set -l got ($line[1] completion words -- $line[2..-1] 2>/dev/null)
    if test (count $got) -gt 0
        printf '%s\n' $got
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c treasury -f -a '(__treasury_complete)'
`
