" lang/tk.vim — Vim syntax for tkc's tile language (.tk files).
" Install: copy to ~/.vim/syntax/tk.vim and add to ~/.vim/ftdetect/tk.vim:
"   autocmd BufRead,BufNewFile *.tk set filetype=tk
" (set, not setfiletype: Vim itself takes *.tk for Tcl/Tk).
if exists('b:current_syntax')
  finish
endif

syn keyword tkKeyword      kernel fn let var return import grid require unchecked as
syn keyword tkConditional  if else
syn keyword tkRepeat       for in range static_for while break continue
syn keyword tkStorage      strided
syn keyword tkType         int bool i8 i16 i32 i64 u8 u32 f16 bf16 f32 f64
syn keyword tkConstant     true false None inf nan
syn keyword tkBuiltin      load store atomic_add atomic_max arange zeros full broadcast reshape trans expand_dims
syn keyword tkBuiltin      where exp exp2 log log2 sqrt rsqrt sin cos tanh erf sigmoid abs
syn keyword tkBuiltin      floor ceil min max pow fma sum argmax argmin cumsum dot
syn keyword tkBuiltin      program_id num_programs cdiv static_assert
syn keyword tkTodo         contained TODO FIXME XXX NOTE

syn match   tkAttribute    "@\h\w*"
syn match   tkNumber       "\<0[xX]\x\+\>"
syn match   tkNumber       "\<\d\+\>"
syn match   tkFloat        "\<\d\+\.\d*\([eE][-+]\=\d\+\)\=\>\|\.\d\+\([eE][-+]\=\d\+\)\=\>\|\<\d\+[eE][-+]\=\d\+\>"
syn match   tkKernelName   "\(\<kernel\s\+\)\@<=\h\w*"
syn match   tkKernelName   "\(\<fn\s\+\)\@<=\h\w*"
syn region  tkString       start=+"+ skip=+\\"+ end=+"+ oneline
syn match   tkComment      "//.*$" contains=tkTodo,@Spell
syn region  tkComment      start="/\*" end="\*/" contains=tkTodo,@Spell

hi def link tkKeyword      Keyword
hi def link tkConditional  Conditional
hi def link tkRepeat       Repeat
hi def link tkStorage      StorageClass
hi def link tkType         Type
hi def link tkConstant     Constant
hi def link tkBuiltin      Function
hi def link tkTodo         Todo
hi def link tkAttribute    PreProc
hi def link tkNumber       Number
hi def link tkFloat        Float
hi def link tkKernelName   Identifier
hi def link tkString       String
hi def link tkComment      Comment

let b:current_syntax = 'tk'
