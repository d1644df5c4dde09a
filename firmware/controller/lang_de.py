# Deutsch: lang_de.T[i] übersetzt lang_en.T[i] (controller/i18n.py). Die Begriffe der
# deutschen Spielregel (das Original): Spielstein, Barragoon, Symbol, schlagen, setzen, Zug.
# One text a line, in the English table's order; the comment is the English text.
T = (
    # --- sides and pieces
    "Weiß",                             # White
    "Braun",                            # Brown
    "W",                                # W
    "B",                                # B
    "Weißer 2er",                       # White 2-tile
    "Weißer 3er",                       # White 3-tile
    "Weißer 4er",                       # White 4-tile
    "Brauner 2er",                      # Brown 2-tile
    "Brauner 3er",                      # Brown 3-tile
    "Brauner 4er",                      # Brown 4-tile
    "Barragoon %s",                     # Barragoon %s
    # --- the Barragoon's faces (screens.FACE_NAMES; headings N E S W, V vertical, H horizontal)
    "Kein Weg",                         # No Entry
    "Ein Weg N",                        # One Way N
    "Ein Weg O",                        # One Way E
    "Ein Weg S",                        # One Way S
    "Ein Weg W",                        # One Way W
    "Zwei Wege N-S",                    # Two Ways V
    "Zwei Wege O-W",                    # Two Ways H
    "Rechtskurve N",                    # Right Turn N
    "Rechtskurve O",                    # Right Turn E
    "Rechtskurve S",                    # Right Turn S
    "Rechtskurve W",                    # Right Turn W
    "Linkskurve N",                     # Left Turn N
    "Linkskurve O",                     # Left Turn E
    "Linkskurve S",                     # Left Turn S
    "Linkskurve W",                     # Left Turn W
    "Alle Kurven",                      # All Turns
    # --- play, placement and face picker screens
    "%s am Zug",                        # %s to move
    "Zuvor",                            # Last
    "Vorrat",                           # Supply
    "Express",                          # Express
    "Barragoon setzen",                 # Place Barragoon
    "%s: setze ihn",                    # %s: put one
    "auf ein leeres",                   # on an empty
    "Feld",                             # square
    "%s: Symbol %s",                    # %s: face %s
    "Setze ihn auf",                    # Set it down on
    "ein leeres Feld",                  # an empty square
    "%s: Barragoon",                    # %s: Barragoon
    "auf",                              # on
    "Sym.",                             # face
    "OK=ja",                            # OK=set
    # --- game over (the reasons are game.TERMINATIONS: the record keeps them in English)
    "Spielende",                        # Game over
    "Remis",                            # Draw
    "gewinnt",                          # wins
    "%s gewinnt",                       # %s wins
    "OK: neues Spiel",                  # OK: new game
    "keine Spielsteine mehr",           # no tiles left
    "kein Zug möglich",                 # no legal move
    "Express-Regel",                    # express rule
    "kein Schlagen mehr möglich",       # no capture possible
    "Wiederholung, keiner kann abweichen",  # repetition, nobody can deviate
    "Unentschieden durch Wiederholung",  # repetition draw accepted
    "Unentschieden vereinbart",         # draw agreed
    "Zeit abgelaufen",                  # time ran out
    "aufgegeben",                       # resigned
    # --- set-up and sensor test
    "Grundstellung",                    # Set up the board
    "Setze",                            # Place
    "Stück entfernen",                  # Remove piece
    "von",                              # from
    "Noch:",                            # Left:
    "Stillhalten...",                   # Hold still...
    "Sensor",                           # Sensors
    "von 63",                           # of 63
    # --- notes while playing
    "OK halten: Menü",                  # Hold OK for menu
    "Erst absetzen",                    # Place it first
    "Erst den Barragoon setzen",        # Place the Barragoon first
    "%s ist nicht am Zug",              # %s: not your turn
    "%s kann nicht ziehen: zurück",     # %s can't move: put it back
    "%s zurück: %s",                    # Put back %s: %s
    "Nimm das Stück von %s",            # Take the piece off %s
    "Falsches Stück auf %s: anheben",   # Wrong piece on %s: lift it
    "%s: kein Ziel",                    # %s: not a target
    "%s schlagen oder zurück",          # Capture %s or put it back
    "Berührt geführt: %s schlägt %s",   # Touch-move: %s takes %s
    "Berührt geführt: %s schlagen",     # Touch-move: capture %s
    "Berührt geführt: %s ziehen",       # Touch-move: move %s
    "Berührt geführt: Stein ziehen",    # Touch-move: move a lifted tile
    "%s: Remis? Menü",                  # %s: draw? menu
    "Schlagen vorbei? Remis: Menü",     # No capture left? Draw: menu
    "Uhr angehalten: OK startet",       # Clock paused: OK starts it
    "Strom war aus: OK startet Uhr",    # Power was off: OK starts clock
    # --- fixing the board
    "Brett richten",                    # Fix the board
    "Warte...",                         # Wait...
    "Zurück auf %s:",                   # Put back on %s:
    "Falsches Stück",                   # Wrong piece on
    "%s: anheben",                      # %s: lift it
    "dann zurück",                      # then put back
    "Nimm das Stück",                   # Take the piece
    "von %s",                           # off %s
    # --- the question when the sensors cannot tell
    "Was geschah?",                     # Which is it?
    "Brett unsicher",                   # Board can't tell
    "Alles zurück?",                    # Each piece back?
    "Kein Schlagen",                    # No capture
    "UP: kein Schlag",                  # UP: no capture
    "Nichts gezogen",                   # Nothing moved
    "Barragoon: %s",                    # Barragoon on %s
    "Weiß auf %s",                      # White's on %s
    "Braun auf %s",                     # Brown's on %s
    "Noch nicht",                       # Not yet
    "Ja, alle zurück",                  # Yes, all back
    "Vertauscht",                       # Pieces swapped
    # --- draw offers
    "Wiederholung",                     # Repetition
    "Remisangebot",                     # Draw offer
    "%s bietet",                        # %s offers
    "Remis an. %s:",                    # a draw. %s:
    "OK halten: ja",                    # hold OK: accept
    "OK drücken: nein",                 # press OK: no
    # --- playing against the board, hints
    "Brett: %s",                        # Board: %s
    "Denke nach...",                    # Thinking...
    "Stärke %d",                        # Strength %d
    "zieht %s",                         # plays %s
    "Entferne %s",                      # Take off %s
    "dann %s ziehen",                   # then move %s
    "Ziehe %s",                         # Move %s
    "nach %s",                          # to %s
    "Gesetzt? OK",                      # Placed? OK
    "So absetzen",                      # Place as shown
    "Das Brett wählte",                 # The board chose
    "Warte: rechnet",                   # Wait: thinking
    "Setze ihn auf %s",                 # Put it on %s
    "Brett: Remis angenommen",          # Board: draw agreed
    "Brett: kein Remis",                # Board: no draw
    "Tipp",                             # Hint
    "%s: Vorschlag",                    # %s could play
    "Tipp (berühren)",                  # Hint: touch ends
    "Berühren/Taste",                   # A touch or key
    "beendet den Tipp",                 # ends the hint
    # --- menus (a list longer than six rows shows 15 characters)
    "Menü",                             # Menu
    "Weiter",                           # Resume
    "Remis zurück",                     # Take back draw
    "Zug zurück",                       # Take back turn
    "Remis anbieten",                   # Offer draw
    "%s: Remis",                        # %s: draw (rep.)
    "Uhr anhalten",                     # Pause clock
    "Uhr starten",                      # Start clock
    "Helligkeit",                       # Brightness
    "Spr.: %s",                         # Lang: %s
    "LEDs: %s",                         # LEDs: %s
    "normal",                           # normal
    "rot-grün",                         # red-green
    "Sensortest",                       # Sensor test
    "LED-Test",                         # LED test
    "Neues Spiel",                      # New game
    "Spiel aufbauen",                   # Set up new game
    "Var.: %s",                         # Variant: %s
    "geschl.",                          # closed
    "offen",                            # open
    "Express Weiß %d",                  # White express %d
    "Express Braun %d",                 # Brown express %d
    "Uhr: aus",                         # Clock: off
    "Uhr: %d min",                      # Clock: %d min
    "Zuschlag: %d s",                   # Increment: %d s
    "Gegen: Brett",                     # Against: board
    "Gegen: Mensch",                    # Against: player
    "Du bist %s",                       # You play %s
    "Spielstand",                       # Saved game
    "Spiel fortsetzen",                 # Resume game
    "Spiel läuft noch",                 # Game not over
    "Weiterspielen",                    # Keep playing
    "Ende, speichern",                  # End and record
    # --- settings and test screens
    "UP/DN: ändern",                    # UP/DN: change
    "OK: fertig",                       # OK: done
    "Alle rot",                         # Red on all
    "Alle grün",                        # Green on all
    "Alle blau",                        # Blue on all
    "Alle weiß",                        # White on all
    "Lauflicht: %s",                    # Walk: %s
    "UP/DN: weiter",                    # UP/DN: next
    "OK: zurück",                       # OK: back
    # --- at power-on
    "Spielstand:",                      # Saved game:
    "defekt: bleibt",                   # damaged: kept
    "als %s",                           # as %s
    "leer",                             # empty
    "unlesbar",                         # unreadable
    "neues Spiel",                      # a new game
    "unlesbar:",                        # unreadable tag:
    "Uhr",                              # clock
    "Gegner",                           # opponent
    "Uhr, Gegner",                      # clock, opponent
    "Kopie: game.bad",                  # copy: game.bad
    "Speicher voll",                    # storage full
    "nicht beiseite",                   # not set aside
    "nicht gelöscht",                   # not removed
    "Standardwerte",                    # defaults used
    "Kopie geladen",                    # copy resumed
    "neues Protokoll",                  # a new log
    "neue Partieliste",                 # new records
    # --- a side played on a computer (controller/remote.py)
    "Fern: %s",                         # Remote: %s
    "Wartet auf",                       # Waiting for
    "seinen Zug",                       # its turn
    "Angebot gesendet",                 # Offer sent
    "Abgelehnt",                        # Declined
    "Fernspiel",                        # Remote play
    "%s spielen am",                    # Play %s on
    "Computer?",                        # a computer?
    "Zurücknehmen",                     # Take back
    "%s möchte",                        # %s asks
    "zurücknehmen.",                    # to take back.
    "Fern: remis",                      # Remote: draw
    "Fern: kein Remis",                 # Remote: no draw
    "%s am Brett",                      # Play %s here
    # --- the rules core's refusals (controller/refusals.py)
    # %s-%s repeats the sequence: %s must deviate
    "%s-%s wiederholt die Zugfolge: %s muss abweichen",
    # %s would complete %s, the turn the repeated sequence predicts: %s must devia...
    "%s würde %s vollenden wie in der wiederholten Zugfolge: %s muss abweichen "
    "(anderes Feld oder Symbol)",
    # %s must accept or decline the draw offer first
    "%s muss erst das Remisangebot annehmen oder ablehnen",
    "%s muss erst einen Barragoon setzen",  # %s must place a Barragoon first
    "%s ist nicht frei",                # %s is not empty
    "das Spiel ist aus: %s",            # the game is over: %s
    "das Spiel ist aus",                # the game is over
    "kein Barragoon zu setzen",         # no Barragoon to place
    "kein Spielstein auf %s",           # no tile on %s
    "%s: kein Stein von %s",            # the tile on %s is not %s's
    "unerlaubter Zug %s-%s",            # illegal move %s-%s
    "keine wiederholte Zugfolge für ein Remis",  # no repeated sequence to offer a draw on
    "kein offenes Remisangebot",        # no draw offer to answer
    "nichts zurückzunehmen",            # nothing to take back
    "kein Zug zurückzunehmen",          # no turn to take back
)
