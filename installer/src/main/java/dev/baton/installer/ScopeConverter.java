package dev.baton.installer;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Turns {@code --scope} text into a {@link Scope}, with a message listing the valid scopes. */
final class ScopeConverter implements ITypeConverter<Scope> {

    @Override
    public Scope convert(String value) {
        try {
            return Scope.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
