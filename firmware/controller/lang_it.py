# Italiano: lang_it.T[i] traduce lang_en.T[i] (controller/i18n.py). I termini del regolamento
# italiano: pedina, Barragoon, simbolo, catturare, posizionare, mossa, patta.
# One text a line, in the English table's order; the comment is the English text.
T = (
    # --- sides and pieces
    "Bianco",                           # White
    "Marrone",                          # Brown
    "B",                                # W
    "M",                                # B
    "Pedina 2 bianca",                  # White 2-tile
    "Pedina 3 bianca",                  # White 3-tile
    "Pedina 4 bianca",                  # White 4-tile
    "Pedina 2 marrone",                 # Brown 2-tile
    "Pedina 3 marrone",                 # Brown 3-tile
    "Pedina 4 marrone",                 # Brown 4-tile
    "Barragoon %s",                     # Barragoon %s
    # --- the Barragoon's faces (screens.FACE_NAMES; headings N E S W, V vertical, H horizontal)
    "Nessuna via",                      # No Entry
    "Una via N",                        # One Way N
    "Una via E",                        # One Way E
    "Una via S",                        # One Way S
    "Una via O",                        # One Way W
    "Due vie N-S",                      # Two Ways V
    "Due vie E-O",                      # Two Ways H
    "Svolta a dx N",                    # Right Turn N
    "Svolta a dx E",                    # Right Turn E
    "Svolta a dx S",                    # Right Turn S
    "Svolta a dx O",                    # Right Turn W
    "Svolta a sx N",                    # Left Turn N
    "Svolta a sx E",                    # Left Turn E
    "Svolta a sx S",                    # Left Turn S
    "Svolta a sx O",                    # Left Turn W
    "Tutte le curve",                   # All Turns
    # --- play, placement and face picker screens
    "Tocca al %s",                      # %s to move
    "Ult.",                             # Last
    "Riserva",                          # Supply
    "Express",                          # Express
    "Metti Barragoon",                  # Place Barragoon
    "%s: mettilo",                      # %s: put one
    "su una casella",                   # on an empty
    "libera",                           # square
    "%s: tipo %s",                      # %s: face %s
    "Posalo su una",                    # Set it down on
    "casella libera",                   # an empty square
    "%s colloca",                       # %s: Barragoon
    "su",                               # on
    "tipo",                             # face
    "OK=sì",                            # OK=set
    # --- game over (the reasons are game.TERMINATIONS: the record keeps them in English)
    "Fine partita",                     # Game over
    "Patta",                            # Draw
    "vince",                            # wins
    "Vince il %s",                      # %s wins
    "OK: nuovo gioco",                  # OK: new game
    "nessuna pedina rimasta",           # no tiles left
    "nessuna mossa possibile",          # no legal move
    "regola express",                   # express rule
    "nessuna cattura possibile",        # no capture possible
    "ripetizione, nessuno può cambiare",  # repetition, nobody can deviate
    "patta per ripetizione accettata",  # repetition draw accepted
    "patta concordata",                 # draw agreed
    "tempo scaduto",                    # time ran out
    "abbandono",                        # resigned
    # --- set-up and sensor test
    "Prepara il gioco",                 # Set up the board
    "Metti",                            # Place
    "Togli il pezzo",                   # Remove piece
    "da",                               # from
    "Ancora",                           # Left:
    "Fermi...",                         # Hold still...
    "Sensori",                          # Sensors
    "su 63",                            # of 63
    # --- notes while playing
    "Tieni OK: menu",                   # Hold OK for menu
    "Prima posalo",                     # Place it first
    "Prima posiziona il Barragoon",     # Place the Barragoon first
    "%s: non è il tuo turno",           # %s: not your turn
    "%s bloccata: rimettila",           # %s can't move: put it back
    "Rimetti %s: %s",                   # Put back %s: %s
    "Togli il pezzo da %s",             # Take the piece off %s
    "Pezzo sbagliato in %s: sollevalo",  # Wrong piece on %s: lift it
    "%s: non valida",                   # %s: not a target
    "Cattura %s o rimettilo",           # Capture %s or put it back
    "Tocca e muovi: %s cattura %s",     # Touch-move: %s takes %s
    "Tocca e muovi: cattura %s",        # Touch-move: capture %s
    "Tocca e muovi: muovi %s",          # Touch-move: move %s
    "Tocca e muovi: muovi la pedina",   # Touch-move: move a lifted tile
    "%s: patta? menu",                  # %s: draw? menu
    "Catture finite? patta: menu",      # No capture left? Draw: menu
    "Orologio fermo: OK lo avvia",      # Clock paused: OK starts it
    "Era spento: OK avvia orologio",    # Power was off: OK starts clock
    # --- fixing the board
    "Sistema il piano",                 # Fix the board
    "Attendi...",                       # Wait...
    "Rimetti in %s:",                   # Put back on %s:
    "Pezzo sbagliato",                  # Wrong piece on
    "%s: sollevalo",                    # %s: lift it
    "poi rimetti",                      # then put back
    "Togli il pezzo",                   # Take the piece
    "da %s",                            # off %s
    # --- the question when the sensors cannot tell
    "Cos'è successo?",                  # Which is it?
    "Non si capisce",                   # Board can't tell
    "Tutto a posto?",                   # Each piece back?
    "Nessuna cattura",                  # No capture
    "UP: non catturo",                  # UP: no capture
    "Nessuna mossa",                    # Nothing moved
    "Barragoon in %s",                  # Barragoon on %s
    "Del Bianco: %s",                   # White's on %s
    "Del Marrone: %s",                  # Brown's on %s
    "Non ancora",                       # Not yet
    "Sì, a posto",                      # Yes, all back
    "Pezzi scambiati",                  # Pieces swapped
    # --- draw offers
    "Ripetizione",                      # Repetition
    "Proposta patta",                   # Draw offer
    "%s propone",                       # %s offers
    "patta. %s:",                       # a draw. %s:
    "tieni OK: sì",                     # hold OK: accept
    "premi OK: no",                     # press OK: no
    # --- playing against the board, hints
    "Tavola: %s",                       # Board: %s
    "Penso...",                         # Thinking...
    "Forza %d",                         # Strength %d
    "gioca %s",                         # plays %s
    "Togli %s",                         # Take off %s
    "poi muovi %s",                     # then move %s
    "Muovi %s",                         # Move %s
    "in %s",                            # to %s
    "Posato? OK",                       # Placed? OK
    "Posalo così",                      # Place as shown
    "Decide la tavola",                 # The board chose
    "Attendi: pensa",                   # Wait: thinking
    "Mettilo in %s",                    # Put it on %s
    "Tavola: patta accettata",          # Board: draw agreed
    "Tavola: niente patta",             # Board: no draw
    "Suggerimento",                     # Hint
    "Per il %s:",                       # %s could play
    "Suggerim.(tocca)",                 # Hint: touch ends
    "Tocco o tasto",                    # A touch or key
    "chiude l'aiuto",                   # ends the hint
    # --- menus (a list longer than six rows shows 15 characters)
    "Menu",                             # Menu
    "Riprendi",                         # Resume
    "Annulla patta",                    # Take back draw
    "Annulla turno",                    # Take back turn
    "Proponi patta",                    # Offer draw
    "%s: patta",                        # %s: draw (rep.)
    "Ferma orologio",                   # Pause clock
    "Avvia orologio",                   # Start clock
    "Luminosità",                       # Brightness
    "Lingua %s",                        # Lang: %s
    "LED: %s",                          # LEDs: %s
    "normale",                          # normal
    "daltonico",                        # red-green
    "Test sensori",                     # Sensor test
    "Test LED",                         # LED test
    "Nuova partita",                    # New game
    "Prepara partita",                  # Set up new game
    "Variante %s",                      # Variant: %s
    "chiusa",                           # closed
    "aperta",                           # open
    "Expr. Bianco %d",                  # White express %d
    "Expr. Marrone %d",                 # Brown express %d
    "Tempo: libero",                    # Clock: off
    "Tempo: %d min",                    # Clock: %d min
    "Increm.: %d s",                    # Increment: %d s
    "Contro: tavola",                   # Against: board
    "Contro: persona",                  # Against: player
    "Sei il %s",                        # You play %s
    "Partita salvata",                  # Saved game
    "Riprendi partita",                 # Resume game
    "Partita in corso",                 # Game not over
    "Continua",                         # Keep playing
    "Termina e salva",                  # End and record
    # --- settings and test screens
    "UP/DN: cambia",                    # UP/DN: change
    "OK: fatto",                        # OK: done
    "Tutti rossi",                      # Red on all
    "Tutti verdi",                      # Green on all
    "Tutti blu",                        # Blue on all
    "Tutti bianchi",                    # White on all
    "Scorre: %s",                       # Walk: %s
    "UP/DN: avanti",                    # UP/DN: next
    "OK: indietro",                     # OK: back
    # --- at power-on
    "Partita salvata:",                 # Saved game:
    "rovinata: tenuta",                 # damaged: kept
    "in %s",                            # as %s
    "vuota",                            # empty
    "illeggibile",                      # unreadable
    "nuova partita",                    # a new game
    "illeggibile:",                     # unreadable tag:
    "orologio",                         # clock
    "avversario",                       # opponent
    "orologio e avv.",                  # clock, opponent
    "copia: game.bad",                  # copy: game.bad
    "Memoria piena",                    # storage full
    "non spostato",                     # not set aside
    "non rimosso",                      # not removed
    "valori standard",                  # defaults used
    "copia ripresa",                    # copy resumed
    "nuovo registro",                   # a new log
    "nuovo archivio",                   # new records
    # --- a side played on a computer (controller/remote.py)
    "Remoto: %s",                       # Remote: %s
    "In attesa",                        # Waiting for
    "della mossa",                      # its turn
    "Offerta inviata",                  # Offer sent
    "Rifiutato",                        # Declined
    "Gioco remoto",                     # Remote play
    "%s sul",                           # Play %s on
    "computer?",                        # a computer?
    "Annulla turno",                    # Take back
    "%s chiede",                        # %s asks
    "di annullare.",                    # to take back.
    "Remoto: patta",                    # Remote: draw
    "Remoto: no patta",                 # Remote: no draw
    "%s qui",                           # Play %s here
    # --- the rules core's refusals (controller/refusals.py)
    "%s-%s ripete la sequenza: il %s deve cambiare",  # %s-%s repeats the sequence: %s must deviate
    # %s would complete %s, the turn the repeated sequence predicts: %s must devia...
    "%s completerebbe %s come nella sequenza ripetuta: il %s deve cambiare (altra "
    "casella o simbolo)",
    # %s must accept or decline the draw offer first
    "il %s deve prima accettare o respingere la patta",
    "il %s deve prima posizionare un Barragoon",  # %s must place a Barragoon first
    "%s non è libera",                  # %s is not empty
    "la partita è finita: %s",          # the game is over: %s
    "la partita è finita",              # the game is over
    "nessun Barragoon da posizionare",  # no Barragoon to place
    "nessuna pedina in %s",             # no tile on %s
    "%s: pedina non del %s",            # the tile on %s is not %s's
    "mossa non valida %s-%s",           # illegal move %s-%s
    "nessuna sequenza ripetuta per la patta",  # no repeated sequence to offer a draw on
    "nessuna proposta di patta",        # no draw offer to answer
    "niente da annullare",              # nothing to take back
    "nessun turno da annullare",        # no turn to take back
)
