import { commands } from './args.ts';
import { kindNames, versionedKinds } from './kinds.ts';

/** A bash completion script: commands, kinds (the versioned ones after history, diff, rollback), sub-commands, and file names after -f and backtest's file flags. */
export function bashCompletion(): string {
  const cmds = Object.keys(commands).join(' ');
  const kinds = kindNames.join(' ');
  const versioned = versionedKinds.join(' ');
  return `# weirctl bash completion: source <(weirctl completion bash)
_weirctl() {
  local cur prev cmd
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  case "$prev" in
    -f|--filename|--ca) if [ "$cmd" != consume ]; then COMPREPLY=( $(compgen -f -- "$cur") ); return; fi ;;
    --rules|--events|--expect|--junit|--mapping-file|--rule|--event) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    -o|--output) if [ "$cmd" = backtest ]; then COMPREPLY=( $(compgen -W "table json yaml junit" -- "$cur") ); elif [ "$cmd" = explain ]; then COMPREPLY=( $(compgen -W "text json" -- "$cur") ); else COMPREPLY=( $(compgen -W "table json yaml" -- "$cur") ); fi; return ;;
    --from) if [ "$cmd" = consume ]; then COMPREPLY=( $(compgen -W "earliest latest" -- "$cur") ); return; fi ;;
    --state) COMPREPLY=( $(compgen -W "pending active expired" -- "$cur") ); return ;;
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=( $(compgen -W "${cmds}" -- "$cur") ); return; fi
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "$cmd" in
      get|describe|delete) COMPREPLY=( $(compgen -W "${kinds}" -- "$cur") ) ;;
      history|diff|rollback) COMPREPLY=( $(compgen -W "${versioned}" -- "$cur") ) ;;
      engine) COMPREPLY=( $(compgen -W "start stop state" -- "$cur") ) ;;
      test) COMPREPLY=( $(compgen -W "rule pdl task pipeline" -- "$cur") ) ;;
      sigma) COMPREPLY=( $(compgen -W "convert import" -- "$cur") ) ;;
      silence) COMPREPLY=( $(compgen -W "list create expire" -- "$cur") ) ;;
      alerts) COMPREPLY=( $(compgen -W "list get ack close group" -- "$cur") ) ;;
      completion) COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") ) ;;
      help) COMPREPLY=( $(compgen -W "${cmds}" -- "$cur") ) ;;
      *) COMPREPLY=( $(compgen -f -- "$cur") ) ;;
    esac
    return
  fi
  COMPREPLY=( $(compgen -f -- "$cur") )
}
complete -F _weirctl weirctl
`;
}

/** zsh: the bash script through zsh's bashcompinit. */
export function zshCompletion(): string {
  return `# weirctl zsh completion: source <(weirctl completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashCompletion()}`;
}
