# Español: lang_es.T[i] traduce lang_en.T[i] (controller/i18n.py). Los términos del reglamento
# en español: ficha, Barragoon, símbolo, comer, colocar, jugada, empate.
# One text a line, in the English table's order; the comment is the English text.
T = (
    # --- sides and pieces
    "Blanco",                           # White
    "Marrón",                           # Brown
    "B",                                # W
    "M",                                # B
    "Ficha 2 blanca",                   # White 2-tile
    "Ficha 3 blanca",                   # White 3-tile
    "Ficha 4 blanca",                   # White 4-tile
    "Ficha 2 marrón",                   # Brown 2-tile
    "Ficha 3 marrón",                   # Brown 3-tile
    "Ficha 4 marrón",                   # Brown 4-tile
    "Barragoon %s",                     # Barragoon %s
    # --- the Barragoon's faces (screens.FACE_NAMES; headings N E S W, V vertical, H horizontal)
    "Ninguna direc.",                   # No Entry
    "Una dirección N",                  # One Way N
    "Una dirección E",                  # One Way E
    "Una dirección S",                  # One Way S
    "Una dirección O",                  # One Way W
    "Dos direc. N-S",                   # Two Ways V
    "Dos direc. E-O",                   # Two Ways H
    "Giro dcha. N",                     # Right Turn N
    "Giro dcha. E",                     # Right Turn E
    "Giro dcha. S",                     # Right Turn S
    "Giro dcha. O",                     # Right Turn W
    "Giro izq. N",                      # Left Turn N
    "Giro izq. E",                      # Left Turn E
    "Giro izq. S",                      # Left Turn S
    "Giro izq. O",                      # Left Turn W
    "Todos los giros",                  # All Turns
    # --- play, placement and face picker screens
    "Turno de %s",                      # %s to move
    "Últ.",                             # Last
    "Reserva",                          # Supply
    "Express",                          # Express
    "Coloca Barragoon",                 # Place Barragoon
    "%s: colócalo",                     # %s: put one
    "en una casilla",                   # on an empty
    "libre",                            # square
    "%s: cara %s",                      # %s: face %s
    "Colócalo en una",                  # Set it down on
    "casilla libre",                    # an empty square
    "%s coloca",                        # %s: Barragoon
    "en",                               # on
    "cara",                             # face
    "OK=sí",                            # OK=set
    # --- game over (the reasons are game.TERMINATIONS: the record keeps them in English)
    "Final del juego",                  # Game over
    "Empate",                           # Draw
    "gana",                             # wins
    "Gana %s",                          # %s wins
    "OK: otra partida",                 # OK: new game
    "no quedan fichas",                 # no tiles left
    "ninguna jugada posible",           # no legal move
    "regla Express",                    # express rule
    "ya no se puede comer",             # no capture possible
    "repetición, nadie puede cambiar",  # repetition, nobody can deviate
    "empate por repetición aceptado",   # repetition draw accepted
    "empate acordado",                  # draw agreed
    "se acabó el tiempo",               # time ran out
    "abandono",                         # resigned
    # --- set-up and sensor test
    "Preparar tablero",                 # Set up the board
    "Pon",                              # Place
    "Quita la pieza",                   # Remove piece
    "de",                               # from
    "Faltan",                           # Left:
    "Quietos...",                       # Hold still...
    "Sensor",                           # Sensors
    "de 63",                            # of 63
    # --- notes while playing
    "Mantén OK: menú",                  # Hold OK for menu
    "Primero colócalo",                 # Place it first
    "Primero coloca el Barragoon",      # Place the Barragoon first
    "%s: no es tu turno",               # %s: not your turn
    "%s no se mueve: devuélvela",       # %s can't move: put it back
    "Devuelve %s: %s",                  # Put back %s: %s
    "Quita la pieza de %s",             # Take the piece off %s
    "Pieza errónea en %s: levántala",   # Wrong piece on %s: lift it
    "%s: no vale",                      # %s: not a target
    "Come %s o devuélvela",             # Capture %s or put it back
    "Pieza tocada: %s come %s",         # Touch-move: %s takes %s
    "Pieza tocada: come %s",            # Touch-move: capture %s
    "Pieza tocada: mueve %s",           # Touch-move: move %s
    "Pieza tocada: mueve una ficha",    # Touch-move: move a lifted tile
    "%s: ¿empate? menú",                # %s: draw? menu
    "¿Ya no se come? empate: menú",     # No capture left? Draw: menu
    "Reloj parado: OK lo inicia",       # Clock paused: OK starts it
    "Estuvo apagado: OK inicia reloj",  # Power was off: OK starts clock
    # --- fixing the board
    "Corrige tablero",                  # Fix the board
    "Espera...",                        # Wait...
    "Devuelve a %s:",                   # Put back on %s:
    "Pieza errónea",                    # Wrong piece on
    "%s: levántala",                    # %s: lift it
    "luego devuelve",                   # then put back
    "Quita la pieza",                   # Take the piece
    "de %s",                            # off %s
    # --- the question when the sensors cannot tell
    "¿Qué ha pasado?",                  # Which is it?
    "No está claro",                    # Board can't tell
    "¿Todo devuelto?",                  # Each piece back?
    "Sin comer",                        # No capture
    "UP: no como",                      # UP: no capture
    "Nada movido",                      # Nothing moved
    "Barragoon en %s",                  # Barragoon on %s
    "De Blanco: %s",                    # White's on %s
    "De Marrón: %s",                    # Brown's on %s
    "Todavía no",                       # Not yet
    "Sí, devuelto",                     # Yes, all back
    "Intercambiadas",                   # Pieces swapped
    # --- draw offers
    "Repetición",                       # Repetition
    "Oferta de empate",                 # Draw offer
    "%s ofrece",                        # %s offers
    "empate. %s:",                      # a draw. %s:
    "mantén OK: sí",                    # hold OK: accept
    "pulsa OK: no",                     # press OK: no
    # --- playing against the board, hints
    "Tablero: %s",                      # Board: %s
    "Pensando...",                      # Thinking...
    "Fuerza %d",                        # Strength %d
    "juega %s",                         # plays %s
    "Quita %s",                         # Take off %s
    "luego mueve %s",                   # then move %s
    "Mueve %s",                         # Move %s
    "a %s",                             # to %s
    "¿Colocado? OK",                    # Placed? OK
    "Colócalo así",                     # Place as shown
    "Cara ya elegida",                  # The board chose
    "Espera: pensando",                 # Wait: thinking
    "Ponlo en %s",                      # Put it on %s
    "Tablero: acepta empate",           # Board: draw agreed
    "Tablero: sin empate",              # Board: no draw
    "Consejo",                          # Hint
    "%s podría:",                       # %s could play
    "Consejo (toca)",                   # Hint: touch ends
    "Tocar o pulsar",                   # A touch or key
    "acaba el consejo",                 # ends the hint
    # --- menus (a list longer than six rows shows 15 characters)
    "Menú",                             # Menu
    "Continuar",                        # Resume
    "Anular empate",                    # Take back draw
    "Deshacer jugada",                  # Take back turn
    "Ofrecer empate",                   # Offer draw
    "%s: empate",                       # %s: draw (rep.)
    "Parar reloj",                      # Pause clock
    "Iniciar reloj",                    # Start clock
    "Brillo",                           # Brightness
    "Idioma %s",                        # Lang: %s
    "LED: %s",                          # LEDs: %s
    "normal",                           # normal
    "daltónico",                        # red-green
    "Prueba sensores",                  # Sensor test
    "Prueba LED",                       # LED test
    "Nueva partida",                    # New game
    "Empezar partida",                  # Set up new game
    "Var.: %s",                         # Variant: %s
    "cerrada",                          # closed
    "abierta",                          # open
    "Expr. Blanco %d",                  # White express %d
    "Expr. Marrón %d",                  # Brown express %d
    "Reloj: no",                        # Clock: off
    "Reloj: %d min",                    # Clock: %d min
    "Increm.: %d s",                    # Increment: %d s
    "Contra: tablero",                  # Against: board
    "Contra: persona",                  # Against: player
    "Juegas %s",                        # You play %s
    "Partida guardada",                 # Saved game
    "Seguir partida",                   # Resume game
    "Partida en curso",                 # Game not over
    "Seguir jugando",                   # Keep playing
    "Acabar, guardar",                  # End and record
    # --- settings and test screens
    "UP/DN: cambiar",                   # UP/DN: change
    "OK: listo",                        # OK: done
    "Todos rojos",                      # Red on all
    "Todos verdes",                     # Green on all
    "Todos azules",                     # Blue on all
    "Todos blancos",                    # White on all
    "Recorre: %s",                      # Walk: %s
    "UP/DN: sigue",                     # UP/DN: next
    "OK: volver",                       # OK: back
    # --- at power-on
    "Partida guardada",                 # Saved game:
    "dañada: guardada",                 # damaged: kept
    "en %s",                            # as %s
    "vacía",                            # empty
    "ilegible",                         # unreadable
    "nueva partida",                    # a new game
    "dato ilegible:",                   # unreadable tag:
    "reloj",                            # clock
    "adversario",                       # opponent
    "reloj y rival",                    # clock, opponent
    "copia: game.bad",                  # copy: game.bad
    "Memoria llena",                    # storage full
    "no apartado",                      # not set aside
    "no borrado",                       # not removed
    "valores base",                     # defaults used
    "copia usada",                      # copy resumed
    "registro nuevo",                   # a new log
    "archivo nuevo",                    # new records
    # --- a side played on a computer (controller/remote.py)
    "Remoto: %s",                       # Remote: %s
    "Esperando",                        # Waiting for
    "su jugada",                        # its turn
    "Oferta enviada",                   # Offer sent
    "Rechazado",                        # Declined
    "Juego remoto",                     # Remote play
    "%s en un",                         # Play %s on
    "ordenador?",                       # a computer?
    "Deshacer turno",                   # Take back
    "%s pide",                          # %s asks
    "deshacer turno.",                  # to take back.
    "Remoto: tablas",                   # Remote: draw
    "Remoto: no tablas",                # Remote: no draw
    "%s aquí",                          # Play %s here
    # --- the rules core's refusals (controller/refusals.py)
    "%s-%s repite la serie: %s debe cambiar",  # %s-%s repeats the sequence: %s must deviate
    # %s would complete %s, the turn the repeated sequence predicts: %s must devia...
    "%s completaría %s como en la serie repetida: %s debe cambiar (otra casilla o símbolo)",
    "%s debe aceptar o rechazar antes el empate",  # %s must accept or decline the draw offer first
    "%s debe colocar antes un Barragoon",  # %s must place a Barragoon first
    "%s no está libre",                 # %s is not empty
    "la partida terminó: %s",           # the game is over: %s
    "la partida terminó",               # the game is over
    "ningún Barragoon que colocar",     # no Barragoon to place
    "ninguna ficha en %s",              # no tile on %s
    "la ficha en %s no es de %s",       # the tile on %s is not %s's
    "jugada no válida %s-%s",           # illegal move %s-%s
    "ninguna serie repetida para empate",  # no repeated sequence to offer a draw on
    "ninguna oferta de empate",         # no draw offer to answer
    "nada que deshacer",                # nothing to take back
    "ninguna jugada que deshacer",      # no turn to take back
)
