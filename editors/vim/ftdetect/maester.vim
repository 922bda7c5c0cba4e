" maester content files (.mst). Vim's own detection calls *.mst "ist" (makeindex styles): override it.
autocmd BufRead,BufNewFile *.mst set filetype=maester
